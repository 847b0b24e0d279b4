package gamedb

// BatchMarkID is batchMarkID, for the tests' hand-made marks.
var BatchMarkID = batchMarkID
