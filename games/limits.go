package games

// movesPerPoint is decided: a record may hold at most this many moves
// (plays and passes) per point of its board. A game fills the board about
// once; four times over leaves room for long ko fights, captured areas
// played again and the passes of a dispute and its resumption, far beyond
// games as played (about 250 moves on 19×19), while a 1 MB body of passes
// (about 260,000) is refused before it is replayed.
const movesPerPoint = 4

// MaxMoves is the most moves Judge accepts in a record on a size×size
// board: 100 on 5×5, 324 on 9×9, 1,444 on 19×19, 2,500 on 25×25. A
// longer record is an *InvalidRecordError on "moves" with Limit and Got.
func MaxMoves(size int) int { return movesPerPoint * size * size }

// Text a record carries besides the moves, decided: each value about the
// game (players' names and ranks as written, date, event, round, place,
// game name, time settings, source) is kept up to MaxInfoText characters,
// and each comment (all of one move's, joined) up to MaxCommentText. The
// reader keeps the first characters of a longer value and says so in the
// record's assumptions. Real values are far shorter: an event with its
// stage is under 100 characters, a teacher's note on a move a few
// paragraphs.
const (
	MaxInfoText    = 200
	MaxCommentText = 10_000
)
