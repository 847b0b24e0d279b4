package ranks

// OneBelow returns the rank one step below r on its scale (1d → 1k,
// 3k → 4k); the lowest kyu and the zero Rank stay as they are.
// Professional ranks step down within the pro scale.
func OneBelow(r Rank) Rank {
	switch {
	case r.kind == Dan && r.level == 1:
		return Rank{Kyu, 1}
	case r.kind == Kyu && r.level < MaxKyu:
		return Rank{Kyu, r.level + 1}
	case (r.kind == Dan || r.kind == Pro) && r.level > 1:
		return Rank{r.kind, r.level - 1}
	}
	return r
}
