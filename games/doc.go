// Package games is the rules engine of Go and the game record: boards of
// 5×5 to 25×25, plays and passes, captures, suicide (multi-stone suicide
// under Ing and NZ rules), simple ko, positional and situational superko,
// handicap, rulesets as values (Chinese, Japanese/Korean, Ing, QQ, AGA,
// NZ presets in one table, rulesetTable, or explicit parameters), replay
// with typed errors, counting (area, territory with seki detection, Ing;
// komi, handicap compensation, penalties), results in SGF form, and game
// records in and out: SGF FF[4] out, and in, SGF as every server writes
// it, Tygem .gib and Pandanet .ugf/.ugi.
//
// ReadRecords reads a file of one or several games. Real files say what
// they mean in many ways; the reader takes what a file means whenever
// that is clear and lists what it assumed in Record.Assumptions, never
// silently: result texts of every server and language (readResult: "B+R
// (timeout)", 黑中盘胜, 白胜3又1/4子, Fox's margins in stones), komi ×100
// and in stones (komiScale), PL and omitted passes, Fox's handicap
// stones written as moves, duplicate properties, setup after moves
// (maxSetupAfterMoves), stray text, UTF-8 with a byte order mark, UTF-16
// and Latin-1; each sentence it writes there comes from one format of
// assumptions.go (AssumptionFormats), which the pages translate. Other
// charsets (GBK, Big5, Shift_JIS, …) are decoded through
// ReadOptions.Decode, which games/charset fills: games itself stays free
// of the decoding tables. What the record says besides the
// moves (date and PlayedAt, event, round, place, times, comments, clock,
// source, the text of a result it cannot read) is kept and written back.
//
// The entry point for a finished game is Judge: it checks a Record field by
// field, replays every move, counts the final position when the game
// ended by counting, and compares the outcome with the claimed result.
// JudgeWith does the same with JudgeOptions for counted records that
// mark no dead stones: the judge proposes them (EstimateDead) and the
// verdict carries the proposal when its count gives the claim; a server's
// claim may be trusted (Verdict.CountUnverified, with the computed
// result); a KM[0] even game that a usual komi explains says so
// (KomiFits). It returns a Verdict or one of four typed errors, each
// matching a sentinel with errors.Is:
//
//	*InvalidRecordError  ErrInvalidRecord  a field is wrong (Field names it)
//	*MoveError           ErrIllegalMove    the first illegal move; unwraps to
//	                                       ErrOccupied, ErrSuicide, ErrKo,
//	                                       ErrSuperko, ErrOffBoard, ErrWrongTurn
//	*ResultMismatchError ErrResultMismatch the claim contradicts the engine
//	*SGFError            ErrBadSGF         malformed SGF, with the byte offset
//
// Game is a game in progress (what a live server drives move by move);
// Board is a bare position. A Board is one value of flat arrays with a
// frame: stones of a chain form a circular list with a head that keeps
// the chain's size, pseudo-liberties and Zobrist hash, so a move's
// captures and resulting hash are known before it is played, illegal
// moves change nothing, and playing allocates nothing.
//
// Decisions the rules leave open are kept in named places: board sizes
// (MinSize, MaxSize), the longest record (MaxMoves, movesPerPoint), the
// Ing ko rule (ingKo), when a simple-ko game cycles (cycleOccurrences),
// how far back a repetition check replays (snapshotEvery), room for two
// eyes in seki detection (bigEyeSpace), komi written times 100
// (komiScale), the default komi (DefaultKomi), the fixed handicap points
// (HandicapPoints) and the number of playouts behind a dead-stone
// proposal (DefaultPlayouts).
//
// EstimateDead proposes the dead stones of a final position for the
// online flow to show first (rankctl score --estimate-dead): stones of
// pass-alive chains (Benson) are never dead, nor chains bordering room
// for two eyes that only their colour borders (roomyChains); the rest are
// judged by the ownership that many random playouts from the position
// give, and a chain the opponent ends up owning is proposed dead; a group
// whose only eye would come from capturing stones that leave a shape the
// vital point kills (nakade) is dead whatever the playouts give
// (killedByNakade). A record still carries the dead stones both players
// agreed.
//
// Time controls (TimeControl, TimePresets) have one text form,
// "600+3x30", used by pools, pending games and exams alike.
//
// Storing, rating and pending games are the intake's (package intake,
// above this one); this package only judges.
//
// games imports only the standard library: the rules, the record and
// the time controls are pure. It must not import ranks, rating, any other
// package of this module (games/charset included: it is called through
// the Decoder type), or any driver.
package games
