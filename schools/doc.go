// Package schools owns Go schools (platform.md flow 5): schools and
// their teachers (head teachers among them), classes with an optional
// capacity and end date, co-teachers, invite codes, students joining,
// leaving, removed or moved, managed accounts for children, and what a
// teacher sees of their own students: the class table and progress over
// time, read from the ledger. It decides "only one's own" in one place
// (SchoolAccess, ClassAccess).
//
// # The service
//
// Service (New) takes the caller (a players.Principal) in every method
// and refuses with a *DeniedError (ErrDenied) what the caller's Access
// does not allow. Admins: CreateSchool, ArchiveSchool, and everything
// below. Head teachers: UpdateSchool, AddTeacher, RemoveTeacher,
// SchoolHistory, SchoolTable, and every class of their school. Teachers
// of a school: School, Classes (their own), CreateClass. Teachers of a
// class: UpdateClass, ArchiveClass, AddCoTeacher, RemoveCoTeacher,
// RotateCode, AddStudents (existing players by username), AddManaged
// (children's accounts with generated usernames and first passwords,
// shown once; WriteNewStudentsCSV prints them; with an Idempotency-Key
// the request is recorded first, ManagedKey, so its retry makes no
// second set: managedkey.go), Remove, Move, Place (a
// starting rank, until the student's first rated game), ResetPassword
// (of a managed student), Table, Progress, ClassHistory. Students:
// Join (by invite code), Leave, Class (the class without its code),
// StudentProgress of themselves. Anyone: MyClasses. Teaches answers
// whether a teacher teaches a player (the API asks it before an exam
// nomination).
//
// # Storage
//
// Store is the port (adapter schools/schooldb, contract suite and
// in-memory store schools/schooltest). A school and a class are chains
// of versions, each change the next version with what changed, who and
// when (Change): the audit trail, and the only way anything is decided,
// by an insert under a deterministic key, since embedded FerretDB v1
// applies no filtered update atomically. A keyed request for managed
// accounts is such an insert too (Store.CreateManagedKey), made before
// any account, and kept ManagedKeyTTL. Capacity, "already a member"
// and a rotated code are checked on the latest version inside the
// change, so two joiners of a full class cannot both get the last place.
//
// # Tables and progress
//
// Table and SchoolTable give each student's ladder score and rank (and
// the school's Scale of it, ranks.Scale; both with the profile's "?"
// while unsettled, Row.Unsettled), certified rank, Glicko-2,
// games and wins this week, this month and in a period, the change since
// a day, the last game and the latest exam registration and grade;
// sortable by any of Columns, paged by Cursor. Progress and
// StudentProgress give the ladder score and rank at the end of each day
// or week of a Range (a day without a game carries the last value) and
// every rank change in it with its cause. All of it is read from the
// students' states and ledger entries; entries never change, so those
// read are kept in memory (rating.Service.Runs, shared with the API's
// rating history) and a table costs one store read per student once they
// are known. WriteTableCSV and WriteProgressCSV
// write CSV with a byte order mark and a header row in Chinese or
// English (ranks as 5级 / 3段 in Chinese). TableQuery and ProgressQuery
// take days as text (YYYY-MM-DD, "" for the defaults: the first of this
// month to today); the service reads them in the school's time zone and
// checks the range (to not before from, at most MaxSpanYears), naming the
// field at fault. Weeks are ISO weeks; exam columns are at most
// ExamsFresh old.
//
// schools calls players, rating and exams directly (domains below it)
// and imports ranks; it must not import api, jobs, cmd, an adapter or a
// driver.
package schools
