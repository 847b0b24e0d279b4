//go:build !unix

package embedded

import "os"

// tryLock: no flock here; rankd's data dir is locked on unix only.
func tryLock(*os.File) (held bool, err error) { return false, nil }

func unlock(*os.File) {}
