# Folium configuration knobs: the one place they are documented.
#
# Set any of them on the make command line (make CONFIG_LOG_BUF_SHIFT=16) or
# in the environment. Each knob is listed as
#     NAME  default  min  max  description
# and checked at build time: a value outside [min, max] stops the build with
# a message naming the knob and its range. `make config` prints the values in
# effect; the kernel prints them at boot and with the `config` shell command.
# A changed value rewrites build/include/generated/config.h, so exactly the
# objects that include it are rebuilt.

CONFIG_KNOBS := \
	CONFIG_LOG_BUF_SHIFT:15:12:22:printk_ring_buffer_size_as_a_power_of_two_(bytes) \
	CONFIG_HZ:100:10:1000:timer_interrupts_per_second_(PIT_channel_0) \
	CONFIG_SHELL_LINE_MAX:256:64:4096:longest_shell_line_in_bytes;_longer_lines_are_refused \
	CONFIG_SHELL_HISTORY:16:1:128:shell_lines_kept_for_up/down_history

CONFIG_LOG_BUF_SHIFT ?= 15
CONFIG_HZ ?= 100
CONFIG_SHELL_LINE_MAX ?= 256
CONFIG_SHELL_HISTORY ?= 16
