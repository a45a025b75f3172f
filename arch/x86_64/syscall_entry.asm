; The ways between ring 0 and ring 3 (Linux: arch/x86/entry/entry_64.S).
;
; syscall_entry is LSTAR's target. SYSCALL left the user rip in rcx, the
; user rflags in r11, CS/SS from STAR, IF/TF/DF/AC/NT cleared by FMASK, and
; rsp untouched: swapgs reaches the per-CPU area, which holds a scratch
; slot for the user rsp and the task's kernel stack. The entry then pushes
; a struct trap_frame (<asm/trap.h>, Linux's pt_regs) exactly as a trap
; from ring 3 would, vector -1, and calls do_syscall_64(regs), which puts
; the result in regs->rax and delivers signals (exit_to_user_mode). SYSRET
; returns only to a canonical rip (an Intel CPU would raise #GP in ring 0
; with the user's rsp otherwise) and only when rcx and r11 still hold rip
; and rflags; anything else (a signal handler's frame, rt_sigreturn's
; restored registers) leaves through iretq.
;
; The entry pushes the system call's number where a trap's error code
; goes (Linux: pt_regs->orig_ax), so a call a signal interrupted can be
; restarted. __switch_to_asm and ret_from_fork_asm below are the other
; half of the task switch (process.c).
bits 64
default rel
%include "arch/x86_64/calling.inc"

%define USER_DS (0x20 | 3)
%define USER_CS (0x28 | 3)
%define PERCPU_KERNEL_STACK 8	; struct percpu in x86.h
%define PERCPU_USER_RSP 16
%define FRAME_R11 (4 * 8)	; offsetof(struct trap_frame, r11)
%define FRAME_RCX (12 * 8)	; offsetof(struct trap_frame, rcx)
%define FRAME_RIP (17 * 8)	; offsetof(struct trap_frame, rip)
%define FRAME_RFLAGS (19 * 8)	; offsetof(struct trap_frame, rflags)
%define X86_EFLAGS_TF 0x100
%define X86_EFLAGS_IF 0x200
%define X86_EFLAGS_RF 0x10000

section .text
extern do_syscall_64

global syscall_entry
syscall_entry:
	swapgs
	mov [gs:PERCPU_USER_RSP], rsp
	mov rsp, [gs:PERCPU_KERNEL_STACK]
	push USER_DS			; ss
	push qword [gs:PERCPU_USER_RSP]	; rsp
	push r11			; rflags
	push USER_CS			; cs
	push rcx			; rip
	push rax			; error code: the call's number (orig_ax)
	push -1				; vector: a system call, not a trap
	PUSH_REGS
	mov rdi, rsp
	call do_syscall_64

	; SYSRET loads rip from rcx and rflags from r11: it can return only
	; to the frame a plain system call left (Linux:
	; syscall_exit_to_user_mode's SYSRET checks). A signal frame or an
	; rt_sigreturn puts other values there and goes out by iretq, as
	; does a non-canonical rip (bits 63..47 not all equal) or RF/TF.
	mov rcx, [rsp + FRAME_RIP]
	cmp rcx, [rsp + FRAME_RCX]
	jne .iret
	mov r11, [rsp + FRAME_RFLAGS]
	cmp r11, [rsp + FRAME_R11]
	jne .iret
	test r11, X86_EFLAGS_RF | X86_EFLAGS_TF
	jnz .iret
	mov r11, rcx
	shl r11, 16
	sar r11, 16
	cmp r11, rcx
	jne .iret
	POP_REGS
	add rsp, 16			; vector and error code
	mov rcx, [rsp]			; rip
	mov r11, [rsp + 16]		; rflags
	mov rsp, [rsp + 24]		; the user's rsp: no stack from here on
	swapgs
	o64 sysret
.iret:
	POP_REGS
	add rsp, 16
	swapgs
	iretq

; struct task_struct *__switch_to_asm(uint64_t *prev_sp, uint64_t next_sp,
;                                     struct task_struct *prev, struct task_struct *next)
; Linux: __switch_to_asm. The callee-saved registers go on prev's stack
; (struct inactive_task_frame in process.c), prev's rsp into *prev_sp;
; next's stack and registers come back, and __switch_to (C) finishes the
; switch and returns prev, on next's stack, to whatever next was doing
; when it switched out: its own __switch_to_asm call, or ret_from_fork_asm
; for a task that never ran. Context: interrupts off.
extern __switch_to
global __switch_to_asm
__switch_to_asm:
	push rbp
	push rbx
	push r12
	push r13
	push r14
	push r15
	mov [rdi], rsp
	mov rsp, rsi
	pop r15
	pop r14
	pop r13
	pop r12
	pop rbx
	pop rbp
	mov rdi, rdx
	mov rsi, rcx
	jmp __switch_to

; A new task's first instructions (Linux: ret_from_fork_asm): rax is the
; task switched away from, rbx a kernel thread's function (0 for a
; program) and r12 its argument; rsp is at the task's struct trap_frame.
; A kernel thread whose function returns exits with its value; a program
; goes to ring 3 through that frame, as start_thread (or fork) set it.
extern schedule_tail
extern kthread_exit
extern exit_to_user_mode
global ret_from_fork_asm
ret_from_fork_asm:
	mov rdi, rax
	call schedule_tail
	test rbx, rbx
	jz .to_user
	mov rdi, r12
	call rbx
	mov edi, eax
	call kthread_exit		; never returns
.to_user:
	mov rdi, rsp
	call exit_to_user_mode
	cli
	POP_REGS
	add rsp, 16			; vector and error code
	swapgs
	iretq
