package knowledge

const (
	cronPkg   = "github.com/robfig/cron/v3"
	gocronPkg = "github.com/go-co-op/gocron/v2"
)

// schedulers: robfig/cron v3 and go-co-op/gocron v2, which run a func
// periodically in this process, on every replica. A time.Ticker loop is not
// a scheduler here.
//
// cron's calls are static on *cron.Cron; AddJob and Schedule take a
// cron.Job, whose Run method is the callback (a cron.FuncJob conversion of
// a func, or a user type). gocron's Scheduler is an interface, so NewJob
// and Update are invokes; their Task comes from gocron.NewTask(fn,
// args...), whose fn is the callback. gocron runs a job on one replica at a
// time only with a distributed elector or locker (Lease).
var schedulers = library{
	name: "schedule",
	pkgs: []string{cronPkg, gocronPkg},
	calls: []Call{
		{Func: method(cronPkg, "Cron", "AddFunc"), Kind: Schedule, Params: []Param{p(1, Callback)}},
		{Func: method(cronPkg, "Cron", "AddJob"), Kind: Schedule, Params: []Param{p(1, Callback)}},
		{Func: method(cronPkg, "Cron", "Schedule"), Kind: Schedule, Params: []Param{p(1, Callback)}},

		{Func: method(gocronPkg, "Scheduler", "NewJob"), Kind: Schedule, Params: []Param{p(1, Callback)}},
		{Func: method(gocronPkg, "Scheduler", "Update"), Kind: Schedule, Params: []Param{p(2, Callback)}},
		{Func: fn(gocronPkg, "NewTask"), Kind: NewHandle, Params: []Param{p(0, Callback), p(1, Binds)}},
		{Func: fn(gocronPkg, "WithDistributedElector"), Kind: Lease},
		{Func: fn(gocronPkg, "WithDistributedLocker"), Kind: Lease},
		{Func: fn(gocronPkg, "WithDistributedJobLocker"), Kind: Lease},
	},
}
