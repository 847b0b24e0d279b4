// Package schooldb keeps schools, classes, invite codes and the records
// of keyed requests for managed accounts
// (schools.Store) in MongoDB, or embedded FerretDB, through the official
// driver v2.
//
// Every change is decided by an insert under a deterministic _id, the
// one first-writer-wins step both stores make atomic (embedded FerretDB
// v1 applies a filtered update as a read and a write, so two writers can
// both see their condition hold; see docs/architecture.md):
//   - school_versions and class_versions: one document per version,
//     _id "<id>#<version>", never changed. A join, a rename, an archive
//     is the next version; two writers of one version: one insert wins,
//     the other reads the latest and tries again.
//   - school_heads and class_heads: each school's and class's latest
//     version copied under its id: a hint, written after the version.
//     A reader probes the versions after it by _id (versions have no
//     gaps) and repairs it, so a head left behind by a crash or by two
//     writers crossing never shows an old version as the latest.
//   - invite_codes: one document per code, _id the code.
//   - managed_keys: the record of a request for managed accounts made
//     with an Idempotency-Key, _id "<hash of class, teacher, key>#<seq>",
//     inserted before any account is made; a key used again once its
//     record expired is the next seq.
//   - school_repairs: one document per one-off repair run to its end
//     (_id its name, such as moved-consent), so that rankd's start does
//     not run it again.
//
// Reads by _id are the hot path (a class, a school, a code: the head and
// one probe that misses); FerretDB pushes only those down to SQLite,
// where rankd's embedded store indexes them. The queries by school,
// teacher and student are on the heads (indexes school_id, teachers,
// student_names, teacher_names, declared here: used on MongoDB, scans
// of the heads on FerretDB v1, one document per class or school, never
// per student or per game).
//
// It imports schools, ranks, internal/mongox and the Mongo driver; never
// api, jobs or cmd.
package schooldb
