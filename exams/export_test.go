package exams

// The service's calls to the domains below it, for the tests of what
// they read and write.
var (
	CreateGame = (*Service).createGame
	OutcomeOf  = (*Service).outcome
	StateOf    = (*Service).state
)
