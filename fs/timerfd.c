/*
 * timerfd (Linux: fs/timerfd.c): a file whose reads return how many times
 * its hrtimer expired since the last read, as 8 bytes. The timer does not
 * restart itself: its callback counts one tick and wakes the readers and
 * pollers; the reader that finds it expired moves a periodic timer on by
 * whole intervals (hrtimer_forward), counting the periods it missed, and
 * starts it again. Example: interval 10 ms, read after 35 ms: the first
 * expiry counted 1, the forward adds 2 more; read returns 3.
 */
#include <arch.h>
#include <fs.h>
#include <hrtimer.h>
#include <posix-timers.h>
#include <slab.h>
#include <syscalls.h>
#include <vm.h>
#include <wait.h>

#define TFD_TIMER_ABSTIME (1 << 0)
#define TFD_TIMER_CANCEL_ON_SET (1 << 1)
#define TFD_SETTIME_FLAGS (TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET)
#define TFD_CLOEXEC O_CLOEXEC
#define TFD_NONBLOCK O_NONBLOCK

/* Linux: struct timerfd_ctx. */
struct timerfd_ctx {
	struct hrtimer t;
	ktime_t tintv; /* the interval, 0: one shot */
	struct wait_queue_head wqh;
	uint64_t ticks; /* expiries not read yet */
	int clockid;
	bool expired; /* fired and not yet moved on (periodic) */
	struct ramfs_inode inode;
};

static unsigned long timerfd_ino = 1;

/* Linux: timerfd_tmrproc. Context: the timer interrupt. */
static enum hrtimer_restart timerfd_tmrproc(struct hrtimer *htmr)
{
	struct timerfd_ctx *ctx = container_of(htmr, struct timerfd_ctx, t);

	ctx->expired = true;
	ctx->ticks++;
	wake_up_interruptible(&ctx->wqh);
	return HRTIMER_NORESTART;
}

/* Linux: the periodic timer's catch-up in timerfd_read and
 * timerfd_gettime: the expiries missed since the one counted. */
static void timerfd_catch_up(struct timerfd_ctx *ctx)
{
	if (ctx->expired && ctx->tintv) {
		ctx->ticks += hrtimer_forward_now(&ctx->t, ctx->tintv) - 1;
		hrtimer_start_expires(&ctx->t, HRTIMER_MODE_ABS);
	}
	ctx->expired = false;
}

/* Linux: timerfd_get_remaining. timerfd_setup starts the timer afresh,
 * so one never armed, or disarmed, has expiry 0: nothing left. */
static ktime_t timerfd_get_remaining(struct timerfd_ctx *ctx)
{
	ktime_t left = hrtimer_get_remaining(&ctx->t);

	return left < 0 ? 0 : left;
}

static long timerfd_read(struct file *file, unsigned long buf, size_t count, uint64_t *pos)
{
	struct timerfd_ctx *ctx = file->private_data;
	unsigned long flags;
	uint64_t ticks;

	if (count < sizeof(ticks))
		return -EINVAL;
	for (;;) {
		flags = arch_irq_save();
		if (ctx->ticks)
			break;
		arch_irq_restore(flags);
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(ctx->wqh, ctx->ticks))
			return -ERESTARTSYS;
	}
	timerfd_catch_up(ctx);
	ticks = ctx->ticks;
	ctx->ticks = 0;
	arch_irq_restore(flags);
	return copy_to_user(buf, &ticks, sizeof(ticks)) ? -EFAULT : (long)sizeof(ticks);
}

/* Linux: timerfd_poll. Readable while expiries are unread. */
static __poll_t timerfd_poll(struct file *file, poll_table *wait)
{
	struct timerfd_ctx *ctx = file->private_data;

	poll_wait(file, &ctx->wqh, wait);
	return ctx->ticks ? POLLIN : 0;
}

static void timerfd_release(struct ramfs_inode *inode, struct file *file)
{
	struct timerfd_ctx *ctx = file->private_data;

	hrtimer_cancel(&ctx->t);
	kfree(ctx);
}

static const struct file_operations timerfd_fops = {
	.read = timerfd_read,
	.poll = timerfd_poll,
	.release = timerfd_release,
};

/* Linux: timerfd_create. The alarm clocks (which need CAP_WAKE_ALARM and
 * a wake-up RTC) are not served: -EINVAL as for an unknown clock. */
SYSCALL_DEFINE2(timerfd_create, int, clockid, int, flags)
{
	struct timerfd_ctx *ctx;
	struct file *file;
	int fd;

	if ((flags & ~(TFD_CLOEXEC | TFD_NONBLOCK)) ||
	    (clockid != CLOCK_MONOTONIC && clockid != CLOCK_REALTIME && clockid != CLOCK_BOOTTIME))
		return -EINVAL;
	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	init_waitqueue_head(&ctx->wqh);
	ctx->clockid = clockid;
	hrtimer_init(&ctx->t, clockid, HRTIMER_MODE_ABS);
	ctx->t.function = timerfd_tmrproc;
	/* Linux: an anonymous inode, "anon_inode:[timerfd]". */
	ctx->inode = (struct ramfs_inode){ .mode = 0600, .nlink = 1, .ino = timerfd_ino++ };
	file = alloc_file(&ctx->inode, &timerfd_fops, O_RDWR | (flags & TFD_NONBLOCK),
			  FMODE_READ | FMODE_WRITE);
	if (!file) {
		kfree(ctx);
		return -ENOMEM;
	}
	file->private_data = ctx;
	fd = fd_install_lowest(task, file, 0, flags & TFD_CLOEXEC);
	if (fd < 0)
		fput(file);
	return fd;
}

/* Linux: timerfd_fget. Return: the timerfd's context with a reference on
 * its file in *filep, or NULL with *err -EBADF or -EINVAL. */
static struct timerfd_ctx *timerfd_fget(struct task_struct *task, int fd, struct file **filep,
					int *err)
{
	struct file *file = fget(task, fd);

	*err = -EBADF;
	if (!file)
		return NULL;
	if (file->f_op != &timerfd_fops) {
		fput(file);
		*err = -EINVAL;
		return NULL;
	}
	*filep = file;
	return file->private_data;
}

static struct __kernel_timespec ktime_to_timespec(ktime_t t)
{
	return (struct __kernel_timespec){ t / (ktime_t)NSEC_PER_SEC, t % (ktime_t)NSEC_PER_SEC };
}

static ktime_t timespec_to_ktime(const struct __kernel_timespec *ts)
{
	if ((uint64_t)ts->tv_sec >= (uint64_t)KTIME_MAX / NSEC_PER_SEC)
		return KTIME_MAX;
	return ts->tv_sec * (ktime_t)NSEC_PER_SEC + ts->tv_nsec;
}

/* Linux: timerfd_setup. The counts start afresh. */
static void timerfd_setup(struct timerfd_ctx *ctx, int flags,
			  const struct __kernel_itimerspec *ktmr)
{
	ktime_t texp = timespec_to_ktime(&ktmr->it_value);

	ctx->expired = false;
	ctx->ticks = 0;
	ctx->tintv = timespec_to_ktime(&ktmr->it_interval);
	hrtimer_init(&ctx->t, ctx->clockid, HRTIMER_MODE_ABS);
	ctx->t.function = timerfd_tmrproc;
	if (texp)
		hrtimer_start(&ctx->t, texp,
			      flags & TFD_TIMER_ABSTIME ? HRTIMER_MODE_ABS : HRTIMER_MODE_REL);
}

static bool itimerspec_valid(const struct __kernel_itimerspec *its)
{
	return its->it_value.tv_sec >= 0 &&
	       (unsigned long long)its->it_value.tv_nsec < NSEC_PER_SEC &&
	       its->it_interval.tv_sec >= 0 &&
	       (unsigned long long)its->it_interval.tv_nsec < NSEC_PER_SEC;
}

/* Linux: do_timerfd_settime. TFD_TIMER_CANCEL_ON_SET is accepted: the
 * realtime clock is never set here, so there is nothing to cancel on. */
SYSCALL_DEFINE4(timerfd_settime, int, ufd, int, flags, unsigned long, utmr, unsigned long, otmr)
{
	struct __kernel_itimerspec new_value, old;
	struct timerfd_ctx *ctx;
	struct file *file;
	unsigned long irq;
	int err;

	if (copy_from_user(&new_value, utmr, sizeof(new_value)))
		return -EFAULT;
	if ((flags & ~TFD_SETTIME_FLAGS) || !itimerspec_valid(&new_value))
		return -EINVAL;
	ctx = timerfd_fget(task, ufd, &file, &err);
	if (!ctx)
		return err;
	irq = arch_irq_save();
	hrtimer_try_to_cancel(&ctx->t);
	/* The caller may want the previous expiry: a periodic one that
	 * fired is moved on first. */
	if (ctx->expired && ctx->tintv)
		hrtimer_forward_now(&ctx->t, ctx->tintv);
	old.it_value = ktime_to_timespec(timerfd_get_remaining(ctx));
	old.it_interval = ktime_to_timespec(ctx->tintv);
	timerfd_setup(ctx, flags, &new_value);
	arch_irq_restore(irq);
	fput(file);
	if (otmr && copy_to_user(otmr, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

SYSCALL_DEFINE2(timerfd_gettime, int, ufd, unsigned long, otmr)
{
	struct __kernel_itimerspec kotmr;
	struct timerfd_ctx *ctx;
	struct file *file;
	unsigned long irq;
	int err;

	ctx = timerfd_fget(task, ufd, &file, &err);
	if (!ctx)
		return err;
	irq = arch_irq_save();
	if (ctx->expired && ctx->tintv)
		timerfd_catch_up(ctx);
	kotmr.it_value = ktime_to_timespec(timerfd_get_remaining(ctx));
	kotmr.it_interval = ktime_to_timespec(ctx->tintv);
	arch_irq_restore(irq);
	fput(file);
	return copy_to_user(otmr, &kotmr, sizeof(kotmr)) ? -EFAULT : 0;
}
