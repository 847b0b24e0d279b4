package matchmaking

// Rand is the randomness nigiri needs; *math/rand/v2.Rand satisfies it.
type Rand interface {
	IntN(n int) int
}

// nigiriMaxStones bounds the handful of white stones grabbed in nigiri
// (decided; any bound of two or more gives a fair guess).
const nigiriMaxStones = 20

// Nigiri (猜先) decides colours for an even game. The holder grabs a handful
// of white stones; the guesser guesses odd or even (by convention with one
// or two black stones) and takes Black when right. It returns whether the
// guesser, the first player given, takes Black.
func Nigiri(r Rand) (guesserBlack bool) {
	stones := 1 + r.IntN(nigiriMaxStones)
	guessOdd := r.IntN(2) == 1
	return (stones%2 == 1) == guessOdd
}
