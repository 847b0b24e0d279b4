package schooldb

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/weiqi-platform/rank/internal/mongox"
	"github.com/weiqi-platform/rank/ranks"
	"github.com/weiqi-platform/rank/schools"
)

// Collection names.
const (
	SchoolVersions = "school_versions"
	SchoolHeads    = "school_heads"
	ClassVersions  = "class_versions"
	ClassHeads     = "class_heads"
	Codes          = "invite_codes"
	ManagedKeys    = "managed_keys"
	Repairs        = "school_repairs"
)

// Store is a schools.Store on a Mongo database.
type Store struct {
	schoolVersions, schoolHeads, classVersions, classHeads, codes, keys, repairs *mongo.Collection
}

var _ schools.Store = (*Store)(nil)

// New returns a Store on db after making sure its indexes exist.
func New(ctx context.Context, db *mongo.Database) (*Store, error) {
	s := &Store{schoolVersions: db.Collection(SchoolVersions), schoolHeads: db.Collection(SchoolHeads),
		classVersions: db.Collection(ClassVersions), classHeads: db.Collection(ClassHeads), codes: db.Collection(Codes), keys: db.Collection(ManagedKeys),
		repairs: db.Collection(Repairs)}
	// The queries on the heads: a school's classes, a teacher's classes
	// and schools, a student's classes. One call per index: FerretDB v1
	// panics on a createIndexes of several that already exist.
	for _, ix := range []struct {
		c    *mongo.Collection
		name string
	}{
		{s.classHeads, "school_id"}, {s.classHeads, "teachers"}, {s.classHeads, "student_names"}, {s.schoolHeads, "teacher_names"},
	} {
		m := mongo.IndexModel{Keys: bson.D{{Key: ix.name, Value: 1}}, Options: options.Index().SetName(ix.name)}
		if _, err := ix.c.Indexes().CreateOne(ctx, m); err != nil {
			return nil, wrap("create indexes", err)
		}
	}
	return s, nil
}

func wrap(op string, err error) error { return mongox.Wrap("schooldb", op, err) }

func key(id string, v int64) string { return id + "#" + strconv.FormatInt(v, 10) }

type changeDoc struct {
	What    string    `bson:"what"`
	Subject string    `bson:"subject,omitempty"`
	By      string    `bson:"by"`
	At      time.Time `bson:"at"`
	Reason  string    `bson:"reason,omitempty"`
	Op      string    `bson:"op"`
}

func toChange(c schools.Change) changeDoc {
	return changeDoc{c.What, c.Subject, c.By, c.At.UTC(), c.Reason, c.Op}
}
func (d changeDoc) change() schools.Change {
	return schools.Change{What: d.What, Subject: d.Subject, By: d.By, At: d.At.UTC(), Reason: d.Reason, Op: d.Op}
}

type teacherDoc struct {
	Username string    `bson:"username"`
	Head     bool      `bson:"head"`
	Since    time.Time `bson:"since"`
	By       string    `bson:"by,omitempty"`
}

// schoolDoc is a school's version (and, under the school's id, its head).
type schoolDoc struct {
	ID           string       `bson:"_id"`
	SchoolID     string       `bson:"school_id"`
	Version      int64        `bson:"version"`
	Name         string       `bson:"name"`
	TimeZone     string       `bson:"time_zone"`
	Scale        string       `bson:"scale"`
	Teachers     []teacherDoc `bson:"teachers,omitempty"`
	TeacherNames []string     `bson:"teacher_names,omitempty"`
	Archived     bool         `bson:"archived,omitempty"`
	Created      time.Time    `bson:"created"`
	Change       changeDoc    `bson:"change"`
}

func toSchoolDoc(s schools.School) schoolDoc {
	d := schoolDoc{ID: key(s.ID, s.Version), SchoolID: s.ID, Version: s.Version, Name: s.Name, TimeZone: s.TimeZone,
		Scale: string(s.Scale), Archived: s.Archived, Created: s.Created.UTC(), Change: toChange(s.Change)}
	for _, t := range s.Teachers {
		d.Teachers = append(d.Teachers, teacherDoc{t.Username, t.Head, t.Since.UTC(), t.By})
		d.TeacherNames = append(d.TeacherNames, t.Username)
	}
	return d
}

func (d schoolDoc) school() schools.School {
	s := schools.School{ID: d.SchoolID, Version: d.Version, Name: d.Name, TimeZone: d.TimeZone, Scale: ranks.Scale(d.Scale),
		Archived: d.Archived, Created: d.Created.UTC(), Change: d.Change.change()}
	for _, t := range d.Teachers {
		s.Teachers = append(s.Teachers, schools.Teacher{Username: t.Username, Head: t.Head, Since: t.Since.UTC(), By: t.By})
	}
	return s
}

type memberDoc struct {
	Username string    `bson:"username"`
	Name     string    `bson:"name,omitempty"`
	Since    time.Time `bson:"since"`
	Via      string    `bson:"via"`
	By       string    `bson:"by,omitempty"`
	Managed  bool      `bson:"managed,omitempty"`
}

// classDoc is a class's version (and, under the class's id, its head).
type classDoc struct {
	ID           string      `bson:"_id"`
	ClassID      string      `bson:"class_id"`
	Version      int64       `bson:"version"`
	SchoolID     string      `bson:"school_id"`
	Name         string      `bson:"name"`
	Capacity     int         `bson:"capacity,omitempty"`
	EndsOn       string      `bson:"ends_on,omitempty"`
	Teachers     []string    `bson:"teachers,omitempty"`
	Students     []memberDoc `bson:"students,omitempty"`
	StudentNames []string    `bson:"student_names,omitempty"`
	Code         string      `bson:"code"`
	CodeExpires  *time.Time  `bson:"code_expires,omitempty"`
	Archived     bool        `bson:"archived,omitempty"`
	Created      time.Time   `bson:"created"`
	Change       changeDoc   `bson:"change"`
}

func toClassDoc(c schools.Class) classDoc {
	d := classDoc{ID: key(c.ID, c.Version), ClassID: c.ID, Version: c.Version, SchoolID: c.SchoolID, Name: c.Name,
		Capacity: c.Capacity, EndsOn: c.EndsOn, Teachers: c.Teachers, Code: c.Code, Archived: c.Archived,
		Created: c.Created.UTC(), Change: toChange(c.Change)}
	if !c.CodeExpires.IsZero() {
		t := c.CodeExpires.UTC()
		d.CodeExpires = &t
	}
	for _, m := range c.Students {
		d.Students = append(d.Students, memberDoc{m.Username, m.Name, m.Since.UTC(), m.Via, m.By, m.Managed})
		d.StudentNames = append(d.StudentNames, m.Username)
	}
	return d
}

func (d classDoc) class() schools.Class {
	c := schools.Class{ID: d.ClassID, Version: d.Version, SchoolID: d.SchoolID, Name: d.Name, Capacity: d.Capacity,
		EndsOn: d.EndsOn, Teachers: d.Teachers, Code: d.Code, Archived: d.Archived, Created: d.Created.UTC(), Change: d.Change.change()}
	if d.CodeExpires != nil {
		c.CodeExpires = d.CodeExpires.UTC()
	}
	for _, m := range d.Students {
		c.Students = append(c.Students, schools.Member{Username: m.Username, Name: m.Name, Since: m.Since.UTC(), Via: m.Via, By: m.By, Managed: m.Managed})
	}
	return c
}

// chain is what schools and classes share: versions under "<id>#<v>"
// and the latest copied under "<id>" as a hint.
type chain[D any] struct {
	versions, heads *mongo.Collection
	what            string
	version         func(D) int64
	op              func(D) string
	withID          func(D, string) D
}

// put inserts version v's document, then brings the head forward.
func (c chain[D]) put(ctx context.Context, id string, d D) error {
	v := c.version(d)
	_, err := c.versions.InsertOne(ctx, d)
	if mongo.IsDuplicateKeyError(err) {
		var got D
		if err := c.versions.FindOne(ctx, bson.D{{Key: "_id", Value: key(id, v)}}).Decode(&got); err != nil {
			return wrap("read "+c.what+" version", err)
		}
		switch {
		case c.op(got) == c.op(d):
			// The same write again (a retry): bring the head forward.
		case v == 0:
			return fmt.Errorf("%w: %s %s", schools.ErrExists, c.what, id)
		default:
			return fmt.Errorf("%w: %s %s version %d", schools.ErrVersionTaken, c.what, id, v)
		}
	} else if err != nil {
		return wrap("store "+c.what+" version", err)
	}
	return c.project(ctx, id, d)
}

// project writes d as the head (a hint).
func (c chain[D]) project(ctx context.Context, id string, d D) error {
	_, err := c.heads.ReplaceOne(ctx, bson.D{{Key: "_id", Value: id}}, c.withID(d, id), options.Replace().SetUpsert(true))
	if mongo.IsDuplicateKeyError(err) {
		return nil // two first heads at once: the reader repairs which is later
	}
	return wrap("write "+c.what+" head", err)
}

// forward probes the versions after d and repairs the head when it was
// behind; known says d came from the head.
func (c chain[D]) forward(ctx context.Context, id string, d D, known bool) (D, error) {
	start := c.version(d)
	for {
		var next D
		err := c.versions.FindOne(ctx, bson.D{{Key: "_id", Value: key(id, c.version(d)+1)}}).Decode(&next)
		if errors.Is(err, mongo.ErrNoDocuments) {
			break
		}
		if err != nil {
			return d, wrap("read "+c.what, err)
		}
		d = next
	}
	if c.version(d) > start || !known {
		if err := c.project(ctx, id, d); err != nil {
			return d, err
		}
	}
	return d, nil
}

// latest reads the latest version.
func (c chain[D]) latest(ctx context.Context, id string) (D, error) {
	var d D
	err := c.heads.FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Decode(&d)
	known := true
	if errors.Is(err, mongo.ErrNoDocuments) {
		// No head yet (a crash after version 0): version 0 if there is one.
		known = false
		err = c.versions.FindOne(ctx, bson.D{{Key: "_id", Value: key(id, 0)}}).Decode(&d)
		if errors.Is(err, mongo.ErrNoDocuments) {
			return d, fmt.Errorf("%s %s: %w", c.what, id, schools.ErrNotFound)
		}
	}
	if err != nil {
		return d, wrap("read "+c.what, err)
	}
	return c.forward(ctx, id, d, known)
}

// all reads every version, oldest first.
func (c chain[D]) all(ctx context.Context, id string) ([]D, error) {
	var out []D
	for v := int64(0); ; v++ {
		var d D
		err := c.versions.FindOne(ctx, bson.D{{Key: "_id", Value: key(id, v)}}).Decode(&d)
		if errors.Is(err, mongo.ErrNoDocuments) {
			break
		}
		if err != nil {
			return nil, wrap("read "+c.what+" versions", err)
		}
		out = append(out, d)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s %s: %w", c.what, id, schools.ErrNotFound)
	}
	return out, nil
}

// query reads the heads matching filter and brings each forward.
func (c chain[D]) query(ctx context.Context, filter bson.D, idOf func(D) string) ([]D, error) {
	cur, err := c.heads.Find(ctx, filter, options.Find().SetSort(bson.D{{Key: "_id", Value: 1}}))
	if err != nil {
		return nil, wrap("query "+c.what, err)
	}
	var heads []D
	if err := cur.All(ctx, &heads); err != nil {
		return nil, wrap("query "+c.what, err)
	}
	out := make([]D, 0, len(heads))
	for _, h := range heads {
		d, err := c.forward(ctx, idOf(h), h, true)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

func (s *Store) schoolChain() chain[schoolDoc] {
	return chain[schoolDoc]{versions: s.schoolVersions, heads: s.schoolHeads, what: "school",
		version: func(d schoolDoc) int64 { return d.Version }, op: func(d schoolDoc) string { return d.Change.Op },
		withID: func(d schoolDoc, id string) schoolDoc { d.ID = id; return d }}
}

func (s *Store) classChain() chain[classDoc] {
	return chain[classDoc]{versions: s.classVersions, heads: s.classHeads, what: "class",
		version: func(d classDoc) int64 { return d.Version }, op: func(d classDoc) string { return d.Change.Op },
		withID: func(d classDoc, id string) classDoc { d.ID = id; return d }}
}

// PutSchool implements schools.Store.
func (s *Store) PutSchool(ctx context.Context, sch schools.School) error {
	return s.schoolChain().put(ctx, sch.ID, toSchoolDoc(sch))
}

// School implements schools.Store.
func (s *Store) School(ctx context.Context, id string) (schools.School, error) {
	d, err := s.schoolChain().latest(ctx, id)
	if err != nil {
		return schools.School{}, err
	}
	return d.school(), nil
}

// SchoolVersions implements schools.Store.
func (s *Store) SchoolVersions(ctx context.Context, id string) ([]schools.School, error) {
	ds, err := s.schoolChain().all(ctx, id)
	out := make([]schools.School, len(ds))
	for i, d := range ds {
		out[i] = d.school()
	}
	return out, err
}

// Schools implements schools.Store.
func (s *Store) Schools(ctx context.Context, q schools.SchoolQuery) ([]schools.School, error) {
	filter := bson.D{}
	if q.Teacher != "" {
		filter = bson.D{{Key: "teacher_names", Value: q.Teacher}}
	}
	ds, err := s.schoolChain().query(ctx, filter, func(d schoolDoc) string { return d.SchoolID })
	if err != nil {
		return nil, err
	}
	var out []schools.School
	for _, d := range ds {
		if sch := d.school(); q.Matches(sch) {
			out = append(out, sch)
		}
	}
	return out, nil
}

// PutClass implements schools.Store.
func (s *Store) PutClass(ctx context.Context, c schools.Class) error {
	return s.classChain().put(ctx, c.ID, toClassDoc(c))
}

// Class implements schools.Store.
func (s *Store) Class(ctx context.Context, id string) (schools.Class, error) {
	d, err := s.classChain().latest(ctx, id)
	if err != nil {
		return schools.Class{}, err
	}
	return d.class(), nil
}

// ClassVersions implements schools.Store.
func (s *Store) ClassVersions(ctx context.Context, id string) ([]schools.Class, error) {
	ds, err := s.classChain().all(ctx, id)
	out := make([]schools.Class, len(ds))
	for i, d := range ds {
		out[i] = d.class()
	}
	return out, err
}

// Classes implements schools.Store.
func (s *Store) Classes(ctx context.Context, q schools.ClassQuery) ([]schools.Class, error) {
	var filter bson.D
	if q.School != "" {
		filter = append(filter, bson.E{Key: "school_id", Value: q.School})
	}
	if q.Teacher != "" {
		filter = append(filter, bson.E{Key: "teachers", Value: q.Teacher})
	}
	if q.Student != "" {
		filter = append(filter, bson.E{Key: "student_names", Value: q.Student})
	}
	if len(filter) == 0 {
		return nil, errors.New("schooldb: a class query needs a school, a teacher or a student")
	}
	ds, err := s.classChain().query(ctx, filter, func(d classDoc) string { return d.ClassID })
	if err != nil {
		return nil, err
	}
	var out []schools.Class
	for _, d := range ds {
		if c := d.class(); q.Matches(c) {
			out = append(out, c)
		}
	}
	return out, nil
}

type codeDoc struct {
	Code    string     `bson:"_id"`
	ClassID string     `bson:"class_id"`
	Created time.Time  `bson:"created"`
	Expires *time.Time `bson:"expires,omitempty"`
}

// CreateCode implements schools.Store: an insert under the code.
func (s *Store) CreateCode(ctx context.Context, c schools.Code) error {
	d := codeDoc{Code: c.Code, ClassID: c.ClassID, Created: c.Created.UTC()}
	if !c.Expires.IsZero() {
		t := c.Expires.UTC()
		d.Expires = &t
	}
	_, err := s.codes.InsertOne(ctx, d)
	if mongo.IsDuplicateKeyError(err) {
		return fmt.Errorf("%w: code %s", schools.ErrExists, c.Code)
	}
	return wrap("create code", err)
}

// Code implements schools.Store.
func (s *Store) Code(ctx context.Context, code string) (schools.Code, error) {
	var d codeDoc
	err := s.codes.FindOne(ctx, bson.D{{Key: "_id", Value: code}}).Decode(&d)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return schools.Code{}, fmt.Errorf("code %s: %w", code, schools.ErrNotFound)
	}
	if err != nil {
		return schools.Code{}, wrap("read code", err)
	}
	c := schools.Code{Code: d.Code, ClassID: d.ClassID, Created: d.Created.UTC()}
	if d.Expires != nil {
		c.Expires = d.Expires.UTC()
	}
	return c, nil
}

// managedKeyDoc is a ManagedKey under "<id>#<seq>".
type managedKeyDoc struct {
	ID        string    `bson:"_id"`
	KeyID     string    `bson:"key_id"`
	Seq       int64     `bson:"seq"`
	ClassID   string    `bson:"class_id"`
	By        string    `bson:"by"`
	Names     string    `bson:"names"`
	Usernames []string  `bson:"usernames,omitempty"`
	Created   time.Time `bson:"created"`
	Expires   time.Time `bson:"expires"`
}

// CreateManagedKey implements schools.Store: an insert under id and seq.
func (s *Store) CreateManagedKey(ctx context.Context, r schools.ManagedKey) error {
	d := managedKeyDoc{ID: key(r.ID, r.Seq), KeyID: r.ID, Seq: r.Seq, ClassID: r.ClassID, By: r.By, Names: r.Names,
		Usernames: r.Usernames, Created: r.Created.UTC(), Expires: r.Expires.UTC()}
	_, err := s.keys.InsertOne(ctx, d)
	if mongo.IsDuplicateKeyError(err) {
		return fmt.Errorf("%w: managed key %s", schools.ErrExists, d.ID)
	}
	return wrap("create managed key", err)
}

// ManagedKey implements schools.Store: the records are probed from #0
// (a key is seldom used again after it expires, so they are few).
func (s *Store) ManagedKey(ctx context.Context, id string) (schools.ManagedKey, error) {
	var last *managedKeyDoc
	for seq := int64(0); ; seq++ {
		var d managedKeyDoc
		err := s.keys.FindOne(ctx, bson.D{{Key: "_id", Value: key(id, seq)}}).Decode(&d)
		if errors.Is(err, mongo.ErrNoDocuments) {
			break
		}
		if err != nil {
			return schools.ManagedKey{}, wrap("read managed key", err)
		}
		last = &d
	}
	if last == nil {
		return schools.ManagedKey{}, fmt.Errorf("managed key %s: %w", id, schools.ErrNotFound)
	}
	return schools.ManagedKey{ID: last.KeyID, Seq: last.Seq, ClassID: last.ClassID, By: last.By, Names: last.Names,
		Usernames: last.Usernames, Created: last.Created.UTC(), Expires: last.Expires.UTC()}, nil
}

// repairDoc marks a one-off repair done.
type repairDoc struct {
	ID string    `bson:"_id"`
	At time.Time `bson:"at"`
}

// MarkRepaired implements schools.Store: an insert under the name.
func (s *Store) MarkRepaired(ctx context.Context, name string, at time.Time) error {
	_, err := s.repairs.InsertOne(ctx, repairDoc{ID: name, At: at.UTC()})
	if mongo.IsDuplicateKeyError(err) {
		return nil
	}
	return wrap("mark repair", err)
}

// Repaired implements schools.Store.
func (s *Store) Repaired(ctx context.Context, name string) (bool, error) {
	var d repairDoc
	err := s.repairs.FindOne(ctx, bson.D{{Key: "_id", Value: name}}).Decode(&d)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return false, nil
	}
	if err != nil {
		return false, wrap("read repair", err)
	}
	return true, nil
}
