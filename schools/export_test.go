package schools

// MaxMoveTrace is maxMoveTrace, for the tests outside the package.
const MaxMoveTrace = maxMoveTrace
