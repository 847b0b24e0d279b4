package games

import (
	"fmt"
	"slices"
)

// The sentences the reader writes in Record.Assumptions, one format each,
// kept here and nowhere else: the pages translate a stored sentence by
// matching it against these formats (AssumptionFormats), so a sentence
// written elsewhere would stay English. A sentence built from pieces is
// split into one format per piece's value, so every argument is a value
// from the file, a number or a colour ("B"/"W"); the exceptions say so.

// AssumptionFormat is the fmt format of one assumption sentence.
type AssumptionFormat string

// text is the sentence with its arguments.
func (f AssumptionFormat) text(args ...any) string { return fmt.Sprintf(string(f), args...) }

// The text of the file (text.go).
const (
	AssumedUTF8BOM          AssumptionFormat = "the file starts with a UTF-8 byte order mark: dropped"
	AssumedUTF16BOM         AssumptionFormat = "the file is UTF-16 with a byte order mark: decoded"
	AssumedUTF16NoBOM       AssumptionFormat = "the file is UTF-16 without a byte order mark: decoded"
	AssumedNoCAMostlyUTF8   AssumptionFormat = "no CA and %d byte(s) are not UTF-8, the rest is: read as UTF-8, those bytes replaced"
	AssumedCAMostlyUTF8     AssumptionFormat = "CA[%s] and %d byte(s) are not UTF-8, the rest is: read as UTF-8, those bytes replaced"
	AssumedNoCADetected     AssumptionFormat = "no CA and the bytes are not UTF-8: decoded as %s, the charset they decode cleanly in"
	AssumedCADetected       AssumptionFormat = "CA[%s] and the bytes are not UTF-8: decoded as %s, the charset they decode cleanly in"
	AssumedNoCAReplaced     AssumptionFormat = "no CA and the bytes are not UTF-8: bytes that are not UTF-8 replaced"
	AssumedCAReplaced       AssumptionFormat = "CA[%s] and the bytes are not UTF-8: bytes that are not UTF-8 replaced"
	AssumedCAWrongLabel     AssumptionFormat = "CA[%s] but the bytes are UTF-8, and decoded from %s they break: read as UTF-8"
	AssumedCADecoded        AssumptionFormat = "CA[%s]: texts decoded from %s"
	AssumedCAUnknownUTF8    AssumptionFormat = "CA[%s] is not a charset this reader decodes, but the bytes are UTF-8: read as UTF-8"
	AssumedCAUnknownInvalid AssumptionFormat = "CA[%s]: texts read as UTF-8; bytes that are not UTF-8 replaced"
)

// The syntax of an SGF file (sgf.go).
const (
	AssumedRootWithoutSemicolon AssumptionFormat = "the root node is written without ';' after '(': read as a node"
	AssumedTextAfterLast        AssumptionFormat = "text after the last game tree (byte %d): ignored"
	AssumedParenAfterLast       AssumptionFormat = "a stray ')' after the last game tree (byte %d): ignored"
	AssumedTextBetween          AssumptionFormat = "text between game trees (byte %d): ignored"
	AssumedNoValue              AssumptionFormat = "property %s at byte %d has no value: ignored"
)

// The record (sgfrecord.go). %s before "given", "is", "[" is a
// property's name.
const (
	AssumedTwiceInNode      AssumptionFormat = "%s given twice in one node (byte %d): the first kept"
	AssumedTwiceInNodeMerge AssumptionFormat = "%s given twice in one node (byte %d): the points merged"
	AssumedBothMoves        AssumptionFormat = "the node at byte %d holds both B and W: read as two moves in that order"
	AssumedMoveValues       AssumptionFormat = "the move at byte %d has %d values: the first kept"
	// The last %s lists the values dropped: "KM[6.5], KM[7]".
	AssumedGivenTimes    AssumptionFormat = "%s given %d times: the first kept (%s[%s]), dropped %s"
	AssumedFoxByoYomi    AssumptionFormat = "TC[%s]TT[%s], Fox's byo-yomi, kept as OT[%s]"
	AssumedDateNoDay     AssumptionFormat = "DT[%s] gives no day: the date played is taken as %s, the first day it names"
	AssumedDateUnknown   AssumptionFormat = "DT[%s] is not a date this reader knows (YYYY-MM-DD): the date played is unknown"
	AssumedKoreanRules   AssumptionFormat = "RU[%s]: Korean rules are counted as the Japanese preset (territory, simple ko), and written RU[Japanese]"
	AssumedRulesUnknown  AssumptionFormat = "RU[%s] is none of chinese, japanese, korean, ing, qq, aga, nz: Chinese rules assumed"
	AssumedHandicapBad   AssumptionFormat = "HA[%s] is not a handicap of 0..%d: ignored"
	AssumedFoxHandicap   AssumptionFormat = "no HA and Black's first %d moves in a row: read as a %d-stone handicap placed by Black (as Fox writes it)"
	AssumedFoxHandicapHA AssumptionFormat = "HA[%d] and Black's first %d moves in a row: read as a %d-stone handicap placed by Black (as Fox writes it)"
	AssumedHandicapNoFix AssumptionFormat = "HA[%d] without AB stones, and %d×%d has no fixed placement: read as an even game"
	AssumedHandicapStars AssumptionFormat = "HA[%d] without AB: the stones assumed on the fixed star points"
	AssumedHandicapAB    AssumptionFormat = "HA[%d] but %d AB stones: a %d-stone handicap assumed, as the stones stand"
	AssumedHandicapEven  AssumptionFormat = "HA[%d] but %d black and %d white setup stones: read as an even game from that position"
	AssumedHandicapNoHA  AssumptionFormat = "no HA, but %d AB stones and White moves first: a %d-stone handicap assumed"
	AssumedPLBad         AssumptionFormat = "PL[%s] (byte %d) is not B or W: ignored"
	AssumedFirstMove     AssumptionFormat = "the first move is %s's and no PL says so: %s moved first, as the record has it"
	AssumedSetupTooMany  AssumptionFormat = "more than %d nodes of setup after moves: the record is read up to move %d"
	AssumedOmittedPasses AssumptionFormat = "a colour played twice in a row: a pass by the other assumed before move%s %s"
	AssumedEmptyNodes    AssumptionFormat = "empty node%s in the main line of an FF[%d] file: read as a pass at move%s %s"
	AssumedClockBad      AssumptionFormat = "%s[%s] (byte %d) is not a time: ignored"
	AssumedKomiAtByte    AssumptionFormat = "%s (byte %d)" // %s: a komi sentence (readKomi)
	AssumedNoKomi        AssumptionFormat = "no KM: komi %s assumed"
	AssumedNoResult      AssumptionFormat = "no result given: play ended by passes, so a count assumed"
	AssumedCountNoPasses AssumptionFormat = "RE[%s] is a count but the moves do not end with %d passes: play assumed ended by agreement"
	AssumedAERemoves     AssumptionFormat = "AE before play removes %d of the setup stones: the rest stand"
	AssumedAEEmpty       AssumptionFormat = "AE before play on %d empty point(s): nothing to remove"
	AssumedSetupTwice    AssumptionFormat = "%d setup point(s) given twice: the first kept"
	AssumedSetupNoReplay AssumptionFormat = "setup after move %d (byte %d): the moves before it do not replay, so the record is read up to it"
	AssumedSetupNotPoint AssumptionFormat = "setup %s[%s] after move %d (byte %d) is not a point on the board: the record is read up to it"
	AssumedSetupNoChange AssumptionFormat = "setup after move %d (byte %d) changes nothing on the board: ignored"
	AssumedSetupAsMove   AssumptionFormat = "setup after move %d (byte %d) places one %s stone, and it is %s's turn: read as %s's move"
	AssumedSetupCut      AssumptionFormat = "setup after move %d (byte %d) changes the position in a way no move does: the record is read up to move %d, and the moves after it are not judged"
	AssumedLongText      AssumptionFormat = "%s is %d characters, more than the %d kept: the rest is dropped"
	AssumedLongGameNote  AssumptionFormat = "the game's comment is %d characters, more than the %d kept: the rest is dropped"
	AssumedLongMoveNote  AssumptionFormat = "the comment after move %d is %d characters, more than the %d kept: the rest is dropped"
	AssumedResultCounted AssumptionFormat = "%s: play ended by passes, so a win by counting (%s) assumed" // %s: a result sentence naming only the winner
	AssumedResultUnknown AssumptionFormat = "%s: the result is unknown"                                   // %s: as above
)

// Komi (readKomi): %s after "komi" is a number.
const (
	AssumedKomiEmpty    AssumptionFormat = "KM[%s] is empty: komi %s assumed"
	AssumedKomiNaN      AssumptionFormat = "KM[%s] is not a number: komi %s assumed"
	AssumedKomiTooLarge AssumptionFormat = "KM[%s] is too large and not komi times %d: komi %s assumed"
	AssumedKomiOdd      AssumptionFormat = "KM[%s] is not a whole or half number of points, nor a number of quarter stones: komi %s assumed"
	AssumedKomiTimes    AssumptionFormat = "KM[%s] read as komi %s: the value was written times %d"
	AssumedKomiStones   AssumptionFormat = "KM[%s] read as komi %s: %s stones written times %d (one stone is two points)"
	AssumedKomiQuarter  AssumptionFormat = "KM[%s] read as komi %s: a quarter komi is one in stones (one stone is two points)"
)

// Results (resulttext.go, claimedResult): %s after "read as" is a result
// in SGF form (B+R, W+3.5), in brackets a colour.
const (
	AssumedRENone         AssumptionFormat = "RE[%s]: no result: the result is unknown"
	AssumedRENotYet       AssumptionFormat = "RE[%s]: the game has no result yet: the result is unknown"
	AssumedRENoWinner     AssumptionFormat = "RE[%s]: it names no winner: the result is unknown"
	AssumedRENotPlus      AssumptionFormat = "RE[%s]: it is not B+… or W+…: the result is unknown"
	AssumedREVoid         AssumptionFormat = "RE[%s] read as Void"
	AssumedREDraw         AssumptionFormat = "RE[%s] read as a draw (0)"
	AssumedREWinnerOnly   AssumptionFormat = "RE[%s] names the winner (%s) but not how the game ended"
	AssumedRELoserOnly    AssumptionFormat = "RE[%s] names the loser, so the winner (%s), but not how the game ended"
	AssumedREReadAs       AssumptionFormat = "RE[%s] read as %s"
	AssumedRERemarkTime   AssumptionFormat = "RE[%s] read as %s: the remark says time"
	AssumedREWordUnknown  AssumptionFormat = "RE[%s]: Black or White won (%s), but \"%s\" says neither a margin nor how the game ended"
	AssumedREUnitUnknown  AssumptionFormat = "RE[%s]: the margin's unit \"%s\" is unknown: read as a win by counting, margin not given"
	AssumedREStones       AssumptionFormat = "RE[%s] read as %s: the margin is in stones (one stone is two points)"
	AssumedREQuarter      AssumptionFormat = "RE[%s] read as %s: a quarter margin is one in stones, as area counting with a komi of 3¾ stones gives (one stone is two points)"
	AssumedREOddMargin    AssumptionFormat = "RE[%s]: the margin is not a number of half points: read as a win by counting, margin not given"
	AssumedREZeroMargin   AssumptionFormat = "RE[%s] is a win by 0 points, which no count under these rules gives: it names the winner (%s) but not how the game ended"
	AssumedGIBResultCode  AssumptionFormat = "gib: result code GRLT %s is not one this reader knows: the result is unknown"
	AssumedUGFWinnerWrong AssumptionFormat = "ugf: Winner=%s names neither B nor W: the result is unknown"
)

// Converted files (formats.go).
const (
	AssumedFromGIB          AssumptionFormat = "converted from Tygem .gib (Korean rules, the board 19×19)"
	AssumedFromUGF          AssumptionFormat = "converted from Pandanet .ugf"
	AssumedPtimeUnknown     AssumptionFormat = "ugf: Ptime=%s is not a time setting this reader knows: no TM"
	AssumedPtimeSidesDiffer AssumptionFormat = "ugf: Ptime=%s gives the sides different main times: no TM"
	AssumedPtimeNoMain      AssumptionFormat = "ugf: Ptime=%s gives no main time: no TM"
	AssumedPtimeTooLong     AssumptionFormat = "ugf: Ptime=%s gives a main time beyond %v: no TM" // %v: a time.Duration
	AssumedPtimeRead        AssumptionFormat = "ugf: Ptime=%s read as %d minutes' main time each (TM[%s])"
	AssumedPtimeReadPart    AssumptionFormat = "ugf: Ptime=%s read as %d minutes' main time each (TM[%s]); its other numbers are not read, and no OT is given"
)

// assumptionFormats lists every format above, for AssumptionFormats.
var assumptionFormats = []AssumptionFormat{
	AssumedUTF8BOM, AssumedUTF16BOM, AssumedUTF16NoBOM, AssumedNoCAMostlyUTF8, AssumedCAMostlyUTF8,
	AssumedNoCADetected, AssumedCADetected, AssumedNoCAReplaced, AssumedCAReplaced, AssumedCAWrongLabel,
	AssumedCADecoded, AssumedCAUnknownUTF8, AssumedCAUnknownInvalid,

	AssumedRootWithoutSemicolon, AssumedTextAfterLast, AssumedParenAfterLast, AssumedTextBetween,
	AssumedNoValue,

	AssumedTwiceInNode, AssumedTwiceInNodeMerge, AssumedBothMoves, AssumedMoveValues, AssumedGivenTimes,
	AssumedFoxByoYomi, AssumedDateNoDay, AssumedDateUnknown, AssumedKoreanRules, AssumedRulesUnknown,
	AssumedHandicapBad, AssumedFoxHandicap, AssumedFoxHandicapHA, AssumedHandicapNoFix, AssumedHandicapStars,
	AssumedHandicapAB, AssumedHandicapEven, AssumedHandicapNoHA, AssumedPLBad, AssumedFirstMove,
	AssumedSetupTooMany, AssumedOmittedPasses, AssumedEmptyNodes, AssumedClockBad, AssumedKomiAtByte,
	AssumedNoKomi, AssumedNoResult, AssumedCountNoPasses, AssumedAERemoves, AssumedAEEmpty, AssumedSetupTwice,
	AssumedSetupNoReplay, AssumedSetupNotPoint, AssumedSetupNoChange, AssumedSetupAsMove, AssumedSetupCut,
	AssumedLongText, AssumedLongGameNote, AssumedLongMoveNote, AssumedResultCounted, AssumedResultUnknown,

	AssumedKomiEmpty, AssumedKomiNaN, AssumedKomiTooLarge, AssumedKomiOdd, AssumedKomiTimes,
	AssumedKomiStones, AssumedKomiQuarter,

	AssumedRENone, AssumedRENotYet, AssumedRENoWinner, AssumedRENotPlus, AssumedREVoid, AssumedREDraw,
	AssumedREWinnerOnly, AssumedRELoserOnly, AssumedREReadAs, AssumedRERemarkTime, AssumedREWordUnknown,
	AssumedREUnitUnknown, AssumedREStones, AssumedREQuarter, AssumedREOddMargin, AssumedREZeroMargin,
	AssumedGIBResultCode, AssumedUGFWinnerWrong,

	AssumedFromGIB, AssumedFromUGF, AssumedPtimeUnknown, AssumedPtimeSidesDiffer, AssumedPtimeNoMain,
	AssumedPtimeTooLong, AssumedPtimeRead, AssumedPtimeReadPart,
}

// AssumptionFormats returns every format of the sentences the reader
// writes in Record.Assumptions, for a caller that translates them.
func AssumptionFormats() []AssumptionFormat { return slices.Clone(assumptionFormats) }
