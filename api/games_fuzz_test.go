package api

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/intake"
)

// FuzzGameBody: any JSON body either becomes a record that the engine
// can judge without panicking, or is refused as an invalid record field.
func FuzzGameBody(f *testing.F) {
	for _, seed := range []string{
		`{"source_id":"s","black":"a","white":"b","moves":["pd","dp","","tt","B qq","W pass"],"end":"resign","result":"B+R"}`,
		`{"source_id":"s","size":9,"rules":"japanese ko=positional","komi":6.5,"handicap":2,"setup":["B cc","B gg"],"moves":["ee"],"end":"score","dead":["cc"]}`,
		`{"source_id":"s","escaped":"white","moves":["aa"]}`,
		`{"source_id":"s","end_by":"purple","end":"time"}`,
		`{"source_id":"s","sgf":"(;SZ[9];B[ee])"}`,
		`{"source_id":"s","moves":["zz9"],"handicap":-1}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var in gameIn
		if json.Unmarshal(body, &in) != nil {
			return
		}
		r, err := in.record()
		var ire *games.InvalidRecordError
		switch {
		case err != nil && !errors.As(err, &ire):
			t.Fatalf("record() = %T %v, want an *InvalidRecordError", err, err)
		case err != nil, r == nil:
			return
		}
		// The unset fields take their defaults, as intake gives them.
		if r.Size == 0 {
			r.Size = intake.DefaultSize
		}
		if r.Rules == (games.Ruleset{}) {
			r.Rules = games.Chinese()
		}
		if r.Handicap < 0 {
			r.Handicap = 0
		}
		if r.Komi != r.Komi { // NaN: not given
			r.Komi = 7.5
		}
		_, _ = games.Judge(r) // must not panic
	})
}
