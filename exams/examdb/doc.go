// Package examdb keeps promotion exams (exams.Store) in MongoDB, or
// embedded FerretDB, through the official driver v2.
//
// No write needs a multi-document transaction, and no correctness rests
// on a conditional update: embedded FerretDB v1 applies an update (also
// findAndModify) as a read and a write, so two concurrent callers can both
// see their condition hold (measured: 30 of 30 trials, 8 callers each).
// What both stores do make atomic is an insert under a unique _id. So
// every fact that must be decided once is its own document, inserted
// once under a deterministic id, and the first one stored is the fact:
//   - exam_sessions: the session as opened (_id the session id);
//   - exam_pairings: its pairing (_id the session id);
//   - exam_settlements: how each game counts (_id the game id);
//   - exam_results: each candidate's grade (_id session id/player);
//   - exam_moves: each state change of a session or result, _id
//     "<subject>|<state it leaves>", so only one move can leave a state.
//
// A session or result is read by folding its moves over its initial
// state. The state_rank and state_hint fields are query hints written
// after a move; a stale hint is never ahead of the truth, so queries
// widen by it and filter on the folded state.
//
// It imports exams, games (time controls), ranks, internal/mongox and the
// Mongo driver; never api or jobs.
package examdb
