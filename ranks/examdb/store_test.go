package examdb_test

import (
	"context"
	"testing"

	"github.com/weiqi-platform/rank/internal/testsvc"
	"github.com/weiqi-platform/rank/ranks"
	"github.com/weiqi-platform/rank/ranks/examdb"
	"github.com/weiqi-platform/rank/ranks/examtest"
)

func open(t *testing.T) ranks.ExamStore {
	s, err := examdb.Open(context.Background(), testsvc.Mongo(t))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestStoreContract(t *testing.T) { examtest.StoreContract(t, open) }
