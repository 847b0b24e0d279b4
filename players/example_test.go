package players_test

import (
	"fmt"

	"github.com/weiqi-platform/rank/players"
)

// Usernames are case-folded: "Alice" and "alice" are one account, and the
// folded form is the key everywhere.
func ExampleNormalizeUsername() {
	for _, s := range []string{"Alice", "go-server_2", "1dan", "li changho"} {
		name, err := players.NormalizeUsername(s)
		fmt.Printf("%q -> %q %v\n", s, name, err)
	}
	// Output:
	// "Alice" -> "alice" <nil>
	// "go-server_2" -> "go-server_2" <nil>
	// "1dan" -> "" username: must start with a letter a-z
	// "li changho" -> "" username: character ' ' at byte 2 is not allowed (use a-z, 0-9, _ or -)
}
