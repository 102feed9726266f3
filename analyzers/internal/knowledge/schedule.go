package knowledge

// schedulers: robfig/cron v3 and go-co-op/gocron v2.
// Rows to come.
var schedulers = library{name: "schedule"}
