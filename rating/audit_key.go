package rating

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
)

// Issue 11: the hash chain alone is no defence against whoever can write
// the database (rewrite entries, recompute every hash and the heads). The
// audit key, which the database never holds (RANK_AUDIT_KEY, or a key
// file in the data dir), authenticates each entry: MAC is
// HMAC-SHA256(key, "rank-ledger-v1" ‖ Hash), and Hash covers the content
// and the link to the entry before. Without the key nobody can write an
// entry verification accepts.

// CheckKey is the check that an entry carries the audit key's MAC.
const CheckKey = "key"

// MinAuditKey is the shortest audit key accepted, in bytes.
const MinAuditKey = 32

func macOf(key []byte, domain, hash string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(domain))
	m.Write([]byte{0})
	m.Write([]byte(hash))
	return hex.EncodeToString(m.Sum(nil))
}

// mac is e's MAC under the service's key, "" when it has none.
func (s *Service) mac(e LedgerEntry) string {
	if len(s.key) == 0 {
		return ""
	}
	return macOf(s.key, "rank-ledger-v1", e.Hash)
}

// keyFaults checks one player's entries against the audit key: a MAC that
// does not match is a forgery (or an edit); an entry without one is
// unkeyed, counted (written before the key was set), unless keyed entries
// came before it in the chain: then it was written without the key, a
// forgery too. It returns the faults and how many entries were unkeyed.
func (s *Service) keyFaults(entries []LedgerEntry) (faults []*ChainError, unkeyed int) {
	if len(s.key) == 0 {
		return nil, 0
	}
	keyed := false
	for _, e := range entries {
		switch {
		case e.MAC == "" && keyed:
			faults = append(faults, &ChainError{e.Username, e.Seq, CheckKey,
				"has no audit MAC though entries before it do: written without the audit key (forged)"})
		case e.MAC == "":
			unkeyed++
		case !hmac.Equal([]byte(e.MAC), []byte(s.mac(e))):
			faults = append(faults, &ChainError{e.Username, e.Seq, CheckKey,
				"its audit MAC does not match: the entry was changed or written without the audit key (forged)"})
			keyed = true
		default:
			keyed = true
		}
	}
	return faults, unkeyed
}
