// Package web owns the pages people use in a browser: server-rendered
// html/template pages for players, teachers and admins, the embedded
// stylesheet and the little JavaScript of the living pages (the
// matchmaking wait, the game stepper), the Chinese and English message
// catalogues, the Chinese of the record reader's assumptions
// (assumptions.go: the stored English is read against games'
// formats), and browser sessions (a cookie holding a token of the
// players' token store, CSRF tokens on every form).
//
// It is an edge like api: it calls the domain services directly (never the
// HTTP API), and shows their errors through the API's one error table
// (api.Classify). It imports the domain packages, ranks, games, jobs (to
// run a job on demand) and api for that table; never an adapter, a
// driver or internal/app, nor cron directly (schedules belong to jobs).
// internal/app mounts it beside the API handler: /api/..., /healthz,
// /readyz and /metrics go to the API, every other path to the pages.
package web
