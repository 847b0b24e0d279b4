package main

import (
	"testing"

	"github.com/weiqi-platform/rank/internal/testsvc"
)

// onEachStore runs f once with rankd on its embedded store and once on
// the store server of its own (FerretDB on PostgreSQL, by MONGO_URI, a
// fresh database), with env added to the store's settings.
func onEachStore(t *testing.T, env map[string]string, f func(t *testing.T, env map[string]string)) {
	t.Run("embedded", func(t *testing.T) { f(t, env) })
	t.Run("ferretpg", func(t *testing.T) {
		db := testsvc.MongoOf(t, testsvc.KindFerretPG)
		e := map[string]string{"MONGO_URI": testsvc.FerretPGURI(t), "MONGO_DB": db.Name()}
		for k, v := range env {
			e[k] = v
		}
		f(t, e)
	})
}
