// Package jobs runs scheduled work (promotion exams, expiry, integrity
// checks) on robfig/cron, once per firing across replicas.
//
// It is the only package that imports cron. It must not import gin.
package jobs
