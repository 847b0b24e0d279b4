package examports_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/games/gamedb"
	"github.com/weiqi-platform/rank/internal/examports"
	"github.com/weiqi-platform/rank/internal/gamerate"
	"github.com/weiqi-platform/rank/internal/testsvc"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/players/playerdb"
	"github.com/weiqi-platform/rank/ranks"
	"github.com/weiqi-platform/rank/ranks/examdb"
	"github.com/weiqi-platform/rank/ranks/examtest"
	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/rating/ratingdb"
)

var (
	ctx    = context.Background()
	made   = time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	firing = time.Date(2026, 3, 7, 11, 0, 0, 0, time.UTC) // Saturday 19:00 in Shanghai
)

// world is the real stores and services under the exam ports, sharing a
// settable clock.
type world struct {
	clock      *examtest.Clock
	accounts   *playerdb.Store
	intake     *games.Intake
	attendance games.Attendance
	ratings    *rating.Service
	exams      ranks.ExamStore
	gamesPort  examports.Games
	players    examports.Players
	directory  games.Players
}

func newWorld(t *testing.T) *world {
	t.Helper()
	db := testsvc.Mongo(t)
	w := &world{clock: examtest.NewClock(made)}
	var err error
	if w.accounts, err = playerdb.New(ctx, db); err != nil {
		t.Fatal(err)
	}
	gstore, err := gamedb.New(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	presence, err := gamedb.NewPresence(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	rstore, err := ratingdb.New(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if w.exams, err = examdb.Open(ctx, db); err != nil {
		t.Fatal(err)
	}
	w.ratings = rating.NewService(rstore, rating.ServiceConfig{Now: w.clock.Now})
	directory := gamerate.NewPlayers(w.accounts)
	w.directory = directory
	w.intake = games.NewIntake(gstore, gamerate.Rater{Service: w.ratings}, directory, nil, games.IntakeConfig{Now: w.clock.Now})
	w.attendance = games.Attendance{Games: gstore, Presence: presence, Now: w.clock.Now}
	w.gamesPort = examports.Games{Intake: w.intake, Presence: w.attendance, Annulments: w.ratings}
	w.players = examports.Players{Directory: directory, Ratings: w.ratings}
	return w
}

// service is one replica's exam service on the world's stores.
func (w *world) service(cert ranks.Certifier) *ranks.ExamService {
	if cert == nil {
		cert = examports.Certifier{Ratings: w.ratings}
	}
	svc := examports.NewService(examports.Wiring{Store: w.exams, Intake: w.intake, Presence: w.attendance,
		Ratings: w.ratings, Directory: w.directory, Clock: w.clock})
	svc.Certifier = cert
	return svc
}

// player makes an account placed at score.
func (w *world) player(t *testing.T, name string, score int) {
	t.Helper()
	if err := w.accounts.CreateAccount(ctx, players.Account{Username: name, Role: players.RolePlayer, CreatedAt: made}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.ratings.Change(ctx, rating.ChangeInput{Key: "place-" + name, Player: name, Cause: rating.CausePlacement,
		Score: &score, Reason: "test placement", Actor: "root"}); err != nil {
		t.Fatal(err)
	}
}

// finish submits a result for the exam game: the loser resigns ("" for
// a draw).
func (w *world) finish(t *testing.T, g ranks.ExamGame, winner string) {
	t.Helper()
	r := &games.Record{Komi: math.NaN(), Handicap: -1, Moves: []games.Move{games.Play(games.Black, games.Point{X: 3, Y: 3})}}
	switch winner {
	case g.Black:
		r.End, r.EndBy = games.EndResign, games.White
	case g.White:
		r.End, r.EndBy = games.EndResign, games.Black
	default:
		r.End = games.EndDraw
	}
	if _, err := w.intake.Submit(ctx, games.Submission{GameID: examports.GameID(g.ID), Record: r, By: "go-server"}); err != nil {
		t.Fatalf("result of %s: %v", g.ID, err)
	}
}

func TestPortsContract(t *testing.T) {
	w := newWorld(t)
	w.player(t, "ann", 120)
	w.player(t, "bob", 80)
	eg := ranks.ExamGame{ID: "wk@2026-03-07T11:00:00Z#1", SessionID: "wk@2026-03-07T11:00:00Z", Black: "ann", White: "bob",
		BoardSize: 19, Rules: "japanese", TimeControl: ranks.DefaultExamTimeControl, Rated: true, Deadline: firing.Add(3 * time.Hour)}
	for range 2 {
		if err := w.gamesPort.CreatePending(ctx, eg); err != nil {
			t.Fatal(err)
		}
	}
	sg, err := w.intake.Game(ctx, examports.GameID(eg.ID))
	if err != nil || sg.Status != games.StatusPending || !sg.ExpiresAt.Equal(eg.Deadline) || sg.Record.Komi != 6.5 ||
		sg.TimeControl != "1200+3x30" || sg.SourceID != "exam:"+eg.ID || !sg.Rated {
		t.Fatalf("pending exam game %+v, %v", sg, err)
	}
	if err := w.gamesPort.CreatePending(ctx, ranks.ExamGame{ID: "x", Black: "ann", White: "bob", Rules: "klingon"}); err == nil {
		t.Fatal("unknown rules accepted")
	}

	o, err := w.gamesPort.Outcome(ctx, eg.ID)
	if err != nil || o.Finished || len(o.Present) != 0 {
		t.Fatalf("outcome of an untouched game: %+v, %v", o, err)
	}
	w.clock.Set(firing)
	if _, err := w.attendance.CheckIn(ctx, sg.ID, "bob"); err != nil {
		t.Fatal(err)
	}
	if o, _ := w.gamesPort.Outcome(ctx, eg.ID); fmt.Sprint(o.Present) != "[bob]" {
		t.Fatalf("outcome after bob checked in: %+v", o)
	}
	w.finish(t, eg, "bob")
	if o, _ := w.gamesPort.Outcome(ctx, eg.ID); !o.Finished || o.Winner != "bob" || o.Void {
		t.Fatalf("outcome after bob won: %+v", o)
	}
	if _, err := w.ratings.Annul(ctx, rating.AnnulInput{GameID: sg.ID, Actor: "root", Reason: "fixed"}); err != nil {
		t.Fatal(err)
	}
	if o, _ := w.gamesPort.Outcome(ctx, eg.ID); !o.Finished || !o.Void {
		t.Fatalf("outcome after the annulment: %+v", o)
	}
	if _, err := w.gamesPort.Outcome(ctx, "nope"); !errors.Is(err, ranks.ErrNotFound) {
		t.Fatalf("outcome of no game: %v", err)
	}

	if s, err := w.players.LadderScore(ctx, "ANN"); err != nil || s != 120 {
		t.Fatalf("ann's score %d, %v", s, err)
	}
	if _, err := w.players.CertifiedRank(ctx, "nobody"); !errors.Is(err, ranks.ErrUnknownPlayer) {
		t.Fatalf("unknown player: %v", err)
	}
	cert := examports.Certifier{Ratings: w.ratings}
	ch := ranks.CertifiedChange{Key: "exam:s/ann", Player: "ann", Rank: ranks.MustParse("1d"), Cause: "exam", CauseID: "s/ann",
		Evidence: []string{"g1"}, Actor: ranks.ExamActor, Reason: "passed", At: firing}
	for range 2 {
		if err := cert.SetCertified(ctx, ch); err != nil {
			t.Fatal(err)
		}
	}
	if r, err := w.players.CertifiedRank(ctx, "ann"); err != nil || r != ranks.MustParse("1d") {
		t.Fatalf("ann's certified rank %v, %v", r, err)
	}
	exam, _ := w.ratings.Audit(ctx, rating.AuditQuery{Player: "ann", Cause: rating.CauseExam, Limit: 5})
	if len(exam) != 1 || exam[0].CertifiedAfter != "1d" || exam[0].Actor != ranks.ExamActor || fmt.Sprint(exam[0].Evidence) != "[g1]" {
		t.Fatalf("ann's exam entries %+v", exam)
	}
}

// failOnce fails the certification of one player once, like a crash of
// the grading replica between two candidates.
type failOnce struct {
	ranks.Certifier
	mu     sync.Mutex
	player string
}

func (f *failOnce) SetCertified(ctx context.Context, c ranks.CertifiedChange) error {
	f.mu.Lock()
	fail := c.Player == f.player
	if fail {
		f.player = ""
	}
	f.mu.Unlock()
	if fail {
		return fmt.Errorf("replica died certifying %s", c.Player)
	}
	return f.Certifier.SetCertified(ctx, c)
}

// TestExamOnRealPortsResumesAfterACrash: a whole session on the real
// stores: games made as pending games, some played and submitted, some
// forfeited by a no-show; the first grader dies between two
// passing candidates; a second replica resumes and grades each candidate
// once, certifying each pass by one ledger entry with its evidence.
func TestExamOnRealPortsResumesAfterACrash(t *testing.T) {
	w := newWorld(t)
	for name, score := range map[string]int{"ann": 90, "bob": 80, "cat": 70, "dan": 60} {
		w.player(t, name, score)
	}
	first := w.service(nil)
	s, err := first.CreateSchedule(ctx, "", ranks.ExamDraft{TargetRank: "1d", Cron: "CRON_TZ=Asia/Shanghai 0 19 * * SAT",
		SessionLength: "3h", GamesPerCandidate: new(2), WinsNeeded: new(2)}, "root")
	if err != nil {
		t.Fatal(err)
	}
	w.clock.Set(firing.Add(-time.Hour))
	for _, p := range []string{"ann", "bob", "cat", "dan"} {
		if _, _, err := first.Register(ctx, ranks.RegisterRequest{ScheduleID: s.ID, Player: p}); err != nil {
			t.Fatal(err)
		}
	}
	w.clock.Set(firing)
	if err := first.Tick(ctx, firing); err != nil {
		t.Fatal(err)
	}
	sess, err := w.exams.Session(ctx, ranks.ExamSessionID(s.ID, firing))
	if err != nil || sess.State != ranks.SessionOpen || len(sess.Pairing) != 4 {
		t.Fatalf("session %+v, %v", sess, err)
	}
	// ann and cat win what they play against the others: every other such
	// game over the board, the rest by forfeit (only they check in); a
	// game without either is void (nobody comes).
	forfeits := 0
	for i, g := range sess.Pairing {
		fav := ""
		for _, p := range []string{g.Black, g.White} {
			if p == "ann" || p == "cat" {
				fav += p
			}
		}
		switch {
		case fav == "ann" || fav == "cat":
			if i%2 == 0 {
				w.finish(t, g, fav)
				continue
			}
			if _, err := w.attendance.CheckIn(ctx, examports.GameID(g.ID), fav); err != nil {
				t.Fatal(err)
			}
			forfeits++
		case fav != "":
			w.finish(t, g, g.Black)
		}
	}
	w.clock.Set(sess.Deadline)
	var pg []ranks.ExamGame
	for _, g := range sess.Pairing {
		o, err := w.gamesPort.Outcome(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		g.Settled = new(ranks.Settle(g.Black, g.White, o))
		pg = append(pg, g)
	}
	var want []string
	for _, c := range sess.Candidates {
		if ranks.TallyGames(c, pg).Passes(2) {
			want = append(want, c)
		}
	}
	if len(want) < 2 {
		t.Fatalf("want two passers to die between, have %v", want)
	}
	crashing := &failOnce{Certifier: examports.Certifier{Ratings: w.ratings}, player: want[1]}
	if _, err := w.service(crashing).Grade(ctx, sess.ID, sess.Deadline); err == nil {
		t.Fatal("the first grader did not die")
	}
	if _, err := w.service(nil).Grade(ctx, sess.ID, sess.Deadline.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := w.service(nil).Tick(ctx, sess.Deadline.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	done, _ := w.exams.Session(ctx, sess.ID)
	if done.State != ranks.SessionGraded {
		t.Fatalf("session %s after resuming", done.State)
	}
	settled := 0
	for _, g := range done.Pairing {
		if g.Settled.Kind == ranks.SettledForfeit {
			settled++
		}
	}
	if forfeits == 0 || settled != forfeits {
		t.Errorf("%d games settled as forfeits, want the %d no-shows", settled, forfeits)
	}
	var got []string
	entries, _ := w.ratings.Audit(ctx, rating.AuditQuery{Cause: rating.CauseExam, Limit: 50})
	for _, e := range entries {
		got = append(got, e.Username)
		if e.CertifiedAfter != "1d" || len(e.Evidence) != 2 || e.Actor != ranks.ExamActor {
			t.Errorf("exam entry %+v", e)
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("certified %v, want %v, once each", got, want)
	}
	results, _ := w.exams.Results(ctx, sess.ID)
	for _, r := range results {
		if slices.Contains(want, r.Player) != (r.State == ranks.ResultCertified) {
			t.Errorf("%s's result %s", r.Player, r.State)
		}
	}
	if rep, err := w.ratings.VerifyAll(ctx, "t"); err != nil || !rep.OK() {
		t.Fatalf("verify after the exam: %+v, %v", rep, err)
	}
}
