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
