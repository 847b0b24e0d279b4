package games

// zobrist holds one random key per colour and board index; a position's
// hash is the XOR of the keys of its stones. The keys are fixed (a
// splitmix64 stream from a constant seed) so hashes are the same in every
// run, which keeps tests and stored hashes reproducible.
var zobrist [3][maxIndex]uint64

// zobristWhiteToMove is XORed in for situational superko: the same stones
// with the other player to move are another situation.
var zobristWhiteToMove uint64

func init() {
	s := uint64(0x9E3779B97F4A7C15)
	next := func() uint64 {
		s += 0x9E3779B97F4A7C15
		z := s
		z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
		z = (z ^ (z >> 27)) * 0x94D049BB133111EB
		return z ^ (z >> 31)
	}
	for c := Black; c <= White; c++ {
		for i := range zobrist[c] {
			zobrist[c][i] = next()
		}
	}
	zobristWhiteToMove = next()
}
