package games_test

import (
	"fmt"

	"github.com/weiqi-platform/rank/games"
)

// A file as a server exports it: Fox's komi in stones times 100, a result
// in Chinese, no PL although White moves first after the setup. The
// reader says what it assumed; JudgeWith judges it as a game server's
// record (the claim is trusted if the count cannot confirm it).
func ExampleReadRecords() {
	file := []byte("(;GM[1]FF[4]SZ[9]KM[375]RU[Chinese]AB[cc]AW[gg]RE[白中盘胜];W[ee];B[ce])")
	recs, err := games.ReadRecords(file, games.ReadOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	r := recs[0]
	for _, a := range r.Assumptions {
		fmt.Println("assumed:", a)
	}
	v, err := games.JudgeWith(r, games.JudgeOptions{ProposeDead: true, TrustClaim: true})
	fmt.Println(v.Result, v.End, err)
	// Output:
	// assumed: the first move is W's and no PL says so: W moved first, as the record has it
	// assumed: KM[375] read as komi 7.5: 3.75 stones written times 100 (one stone is two points) (byte 19)
	// assumed: RE[白中盘胜] read as W+R
	// W+R resign <nil>
}
