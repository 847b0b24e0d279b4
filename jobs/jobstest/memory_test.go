package jobstest_test

import (
	"testing"

	"github.com/weiqi-platform/rank/jobs"
	"github.com/weiqi-platform/rank/jobs/jobstest"
)

func TestMemory(t *testing.T) {
	jobstest.Run(t, func(*testing.T) jobs.Runs { return jobstest.NewMemory() })
}
