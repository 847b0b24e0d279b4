package exams

// Outcome is what the games intake says of an exam game when the session
// is graded (Service.outcome).
type Outcome struct {
	Finished bool     // a result came in through the games intake
	Winner   string   // the winner's username; "" for a draw or a void game
	Void     bool     // finished without a result (annulled, no result)
	Present  []string // unfinished: the players who showed up for it
}

// Settlement kinds: how an exam game counts.
const (
	SettledPlayed  = "played"  // finished with a winner
	SettledDraw    = "draw"    // finished, nobody won
	SettledVoid    = "void"    // no result: counts for nobody
	SettledForfeit = "forfeit" // unplayed: the absent side lost
)

// Settlement is how one exam game counts for grading; it is fixed once,
// when the session is graded, so that both players are graded on the same
// facts even if a late result comes in.
type Settlement struct {
	Kind   string `json:"kind"`
	Winner string `json:"winner,omitempty"`
}

// Settle decides how an exam game counts at the deadline: a finished game
// by its result; an unfinished one is a forfeit of the absent side, void
// when both were absent. Decided: an unfinished game that both players
// joined is void too (the deadline is the deadline; neither forfeited).
func Settle(black, white string, o Outcome) Settlement {
	if o.Finished {
		switch {
		case o.Void:
			return Settlement{Kind: SettledVoid}
		case o.Winner == black || o.Winner == white:
			return Settlement{Kind: SettledPlayed, Winner: o.Winner}
		case o.Winner == "":
			return Settlement{Kind: SettledDraw}
		}
		return Settlement{Kind: SettledVoid} // a winner who is not in the game: not evidence
	}
	var b, w bool
	for _, p := range o.Present {
		b = b || p == black
		w = w || p == white
	}
	switch {
	case b && !w:
		return Settlement{Kind: SettledForfeit, Winner: black}
	case w && !b:
		return Settlement{Kind: SettledForfeit, Winner: white}
	}
	return Settlement{Kind: SettledVoid}
}

// Tally is one candidate's record in a session.
type Tally struct {
	Games         int `json:"games"`
	Wins          int `json:"wins"` // including ForfeitWins
	Losses        int `json:"losses"`
	Draws         int `json:"draws"`
	Voids         int `json:"voids"`
	ForfeitWins   int `json:"forfeit_wins"`
	ForfeitLosses int `json:"forfeit_losses"`
}

// TallyGames counts player's settled games. Games not yet settled count
// as nothing.
func TallyGames(player string, games []Game) Tally {
	var t Tally
	for _, g := range games {
		if (g.Black != player && g.White != player) || g.Settled == nil {
			continue
		}
		t.Games++
		s := g.Settled
		switch {
		case s.Kind == SettledDraw:
			t.Draws++
		case s.Kind == SettledVoid:
			t.Voids++
		case s.Winner == player:
			t.Wins++
			if s.Kind == SettledForfeit {
				t.ForfeitWins++
			}
		default:
			t.Losses++
			if s.Kind == SettledForfeit {
				t.ForfeitLosses++
			}
		}
	}
	return t
}

// Passes reports whether a tally passes an exam needing winsNeeded wins.
// Wins by forfeit count: the opponent did not come.
func (t Tally) Passes(winsNeeded int) bool { return t.Wins >= winsNeeded }
