package ranks_test

import (
	"testing"

	"github.com/weiqi-platform/rank/ranks"
)

func TestOneBelow(t *testing.T) {
	for in, want := range map[string]string{"1d": "1k", "3d": "2d", "1k": "2k", "24k": "25k", "25k": "25k", "3p": "2p", "1p": "1p"} {
		if got := ranks.OneBelow(ranks.MustParse(in)).String(); got != want {
			t.Errorf("OneBelow(%s) = %s, want %s", in, got, want)
		}
	}
}
