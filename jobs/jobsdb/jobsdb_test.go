package jobsdb_test

import (
	"testing"

	"github.com/weiqi-platform/rank/internal/testsvc"
	"github.com/weiqi-platform/rank/jobs"
	"github.com/weiqi-platform/rank/jobs/jobsdb"
	"github.com/weiqi-platform/rank/jobs/jobstest"
)

func TestContract(t *testing.T) {
	for _, kind := range testsvc.MongoKinds() {
		t.Run(kind, func(t *testing.T) {
			jobstest.Run(t, func(t *testing.T) jobs.Runs { return jobsdb.New(testsvc.MongoOf(t, kind)) })
		})
	}
}
