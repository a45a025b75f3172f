# Folium configuration knobs: the one place they are documented.
#
# Set any of them on the make command line (make CONFIG_HZ=250) or in the
# environment. Each knob is listed as
#     NAME:default:min:max:description-with-~-for-spaces
# (a knob whose min:max is n:y is a y/n switch) and checked at build time:
# a value outside its range stops the build with a message naming the knob
# and the range. `make config` prints the values in effect; the kernel
# prints them at boot and with the `config` shell command. A changed value
# rewrites build/include/generated/config.h, so exactly the objects that
# include it are rebuilt.
#
# CONFIG_PAGE_BLOCK_ORDER is a ceiling, not the order itself: with
# CONFIG_TRANSPARENT_HUGEPAGE=y the effective pageblock_order is
# min(HPAGE_PMD_ORDER = 9, CONFIG_PAGE_BLOCK_ORDER), as in Linux. Linux
# later renamed the knob CONFIG_PAGE_BLOCK_MAX_ORDER for that reason, so
# PAGE_BLOCK_MAX_ORDER and CONFIG_PAGE_BLOCK_MAX_ORDER are accepted as
# aliases of CONFIG_PAGE_BLOCK_ORDER here.

CONFIG_KNOBS = \
	CONFIG_MAX_PAGE_ORDER:10:9:12:largest~buddy~order;~the~biggest~block~is~2^N~pages~(order~9~is~needed~for~2~MiB~folios) \
	CONFIG_PAGE_BLOCK_ORDER:$(CONFIG_MAX_PAGE_ORDER):1:$(CONFIG_MAX_PAGE_ORDER):pageblock~order~ceiling~(alias~PAGE_BLOCK_MAX_ORDER) \
	CONFIG_TRANSPARENT_HUGEPAGE:y:n:y:large~anonymous~folios;~caps~pageblock~order~at~HPAGE_PMD_ORDER \
	CONFIG_DEBUG_VM:y:n:y:poison~freed~pages~and~check~every~page~state~change \
	CONFIG_PROVE_LOCKING:y:n:y:the~lock-order~checker~(lockdep):~inversions,~interrupt~misuse,~recursion \
	CONFIG_LOG_BUF_SHIFT:15:12:22:printk~ring~buffer~size~as~a~power~of~two~(bytes) \
	CONFIG_HZ:100:10:1000:timer~interrupts~per~second~(PIT~channel~0) \
	CONFIG_NR_CPUS:64:1:512:most~CPUs~the~kernel~can~use;~the~MADT's~others~are~reported~and~left~out \
	CONFIG_SHELL_LINE_MAX:256:64:4096:longest~shell~line~in~bytes;~longer~lines~are~refused \
	CONFIG_SHELL_HISTORY:16:1:128:shell~lines~kept~for~up/down~history

CONFIG_MAX_PAGE_ORDER ?= 10
ifdef PAGE_BLOCK_MAX_ORDER
CONFIG_PAGE_BLOCK_ORDER ?= $(PAGE_BLOCK_MAX_ORDER)
endif
ifdef CONFIG_PAGE_BLOCK_MAX_ORDER
CONFIG_PAGE_BLOCK_ORDER ?= $(CONFIG_PAGE_BLOCK_MAX_ORDER)
endif
CONFIG_PAGE_BLOCK_ORDER ?= $(CONFIG_MAX_PAGE_ORDER)
CONFIG_TRANSPARENT_HUGEPAGE ?= y
CONFIG_DEBUG_VM ?= y
CONFIG_PROVE_LOCKING ?= y
CONFIG_LOG_BUF_SHIFT ?= 15
CONFIG_HZ ?= 100
CONFIG_NR_CPUS ?= 64
CONFIG_SHELL_LINE_MAX ?= 256
CONFIG_SHELL_HISTORY ?= 16

# The reference kernels of the side-by-side and of the differential check:
# Debian's packages, fetched as data into $(B)/linux/VERSION/ by
# tools/fetch-linux.sh (apt-get with a private source list; the SHA-256 is
# checked against Debian's signed index), never installed. LINUX_OLD is
# "before the seeds' patches": Debian 12's Linux 6.1 (no mTHP, MADV_FREE
# splits PTE-mapped large folios, huge pages cleared page by page).
# LINUX_NEW is "after", the yardstick: Linux 7.3 from Debian 13's
# backports (mTHP, batched MADV_FREE, clear_pages with the faulting page's
# neighbourhood last, CONFIG_PAGE_BLOCK_MAX_ORDER, MM-ID). Each is a suite,
# a package, its version, and the package holding its config. A pin the
# archive no longer has stops the fetch with the versions it does have.
DEBIAN_MIRROR ?= http://deb.debian.org/debian
LINUX_OLD_SUITE := bookworm
LINUX_OLD_PACKAGE := linux-image-6.1.0-50-amd64
LINUX_OLD_VERSION := 6.1.176-1
LINUX_OLD_CONFIG_PACKAGE := $(LINUX_OLD_PACKAGE)
LINUX_NEW_SUITE := trixie-backports
LINUX_NEW_PACKAGE := linux-binary-7.3.4+deb13-amd64
LINUX_NEW_VERSION := 7.3.4-1~bpo13+1
LINUX_NEW_CONFIG_PACKAGE := linux-base-7.3.4+deb13-amd64

# The distribution's shells in the initramfs (the Makefile's distro.cpio):
# Debian 12's static busybox (ash and its applets) and bash, fetched as
# data by tools/fetch-programs.sh the same way, never installed.
DISTRO_SUITE := bookworm
BUSYBOX_VERSION := 1:1.35.0-4+deb12u1+b1
BASH_VERSION := 5.2.15-2+b13
