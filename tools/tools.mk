# tools/tools.mk: host tools written in C, and their tests (make test-tools).
# Included by the top-level Makefile; B is the build directory. Each tool is
# one file, tools/NAME.c -> $(B)/tools/NAME, built warning-free as C11.

HOSTCC ?= cc
TOOLS_CFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -O2
TOOLS_BINS := $(B)/tools/ktap $(B)/tools/serial-session $(B)/tools/benchrec \
	$(B)/tools/linux-madvise-free

$(TOOLS_BINS): $(B)/tools/%: tools/%.c tools/tools.mk
	@mkdir -p $(@D)
	$(HOSTCC) $(TOOLS_CFLAGS) -o $@ $<
# linux-madvise-free prints its record with the user programs' rec_line.
$(B)/tools/linux-madvise-free: user/rec_line.h

.PHONY: test-tools
test-tools: $(TOOLS_BINS)
	sh tools/tests/ktap-test.sh $(B)/tools/ktap
	sh tools/tests/serial-session-test.sh $(B)/tools/serial-session
	sh tools/tests/benchrec-test.sh $(B)/tools/benchrec
	sh tools/tests/experiment-test.sh $(B)/tools/serial-session
