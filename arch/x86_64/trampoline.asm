; The application processors' way from reset to the kernel (Linux:
; arch/x86/realmode/rm/trampoline_64.S and head_64.S's
; secondary_startup_64). smpboot.c copies trampoline_start..end to a
; page below 1 MiB, fills its data block (struct trampoline_data: keep
; the offsets in step) and sends INIT and two STARTUPs whose vector is
; that page's number: the AP starts in real mode at CS = page << 8, IP 0.
;
;   real mode      DS = CS; ebx = the page's physical address; a stack at
;                  the page's top; the GDT below loaded; CR0.PE
;   32-bit         flat segments; CR4.PAE, CR3 = the trampoline's own
;                  top table (the kernel half of the kernel's, and the
;                  first 2 MiB identity-mapped: this code), EFER's LME
;                  and NXE, then CR0 as the boot CPU has it (PG on)
;   64-bit         jump to secondary_startup_64 in the kernel's half with
;                  the CPU number, the idle task's stack top and the
;                  kernel's CR3 in rdi, rsi, rdx
; The APs start one at a time, so one data block serves them all.
bits 16
section .rodata
align 16
global trampoline_start, trampoline_end
trampoline_start:
	cli
	cld
	mov ax, cs
	mov ds, ax
	mov ss, ax
	mov sp, 0x1000			; this page's top
	xor ebx, ebx
	mov bx, ax
	shl ebx, 4			; ebx: where this page is
	mov dword [tr_started - trampoline_start], 1
	lea eax, [ebx + tr_gdt - trampoline_start]
	mov [tr_gdtr + 2 - trampoline_start], eax
	o32 lgdt [tr_gdtr - trampoline_start]
	mov eax, cr0
	or eax, 1			; PE
	mov cr0, eax
	lea eax, [ebx + tr_32 - trampoline_start]
	push dword 0x18			; the 32-bit code segment below
	push eax
	o32 retf

bits 32
tr_32:
	mov ax, 0x10
	mov ds, ax
	mov es, ax
	mov ss, ax
	lea esp, [ebx + 0x1000]
	mov eax, cr4
	or eax, 1 << 5			; PAE
	mov cr4, eax
	mov eax, [ebx + tr_pml4 - trampoline_start]
	mov cr3, eax
	mov ecx, 0xc0000080		; IA32_EFER
	mov eax, [ebx + tr_efer - trampoline_start]
	xor edx, edx
	wrmsr
	mov eax, [ebx + tr_cr0 - trampoline_start]
	mov cr0, eax			; PG: long mode, compatibility submode
	lea eax, [ebx + tr_64 - trampoline_start]
	push dword 0x08			; the 64-bit code segment
	push eax
	retf

bits 64
tr_64:
	mov rdi, [rbx + tr_cpu - trampoline_start]
	mov rsi, [rbx + tr_stack - trampoline_start]
	mov rdx, [rbx + tr_kernel_cr3 - trampoline_start]
	mov rax, [rbx + tr_entry - trampoline_start]
	jmp rax

align 8
tr_gdtr:
	dw tr_gdt_end - tr_gdt - 1
	dd 0				; the GDT's address, set above
	dw 0
align 8
tr_gdt:
	dq 0
	dq 0x00af9a000000ffff		; 0x08: 64-bit code
	dq 0x00cf92000000ffff		; 0x10: flat data
	dq 0x00cf9a000000ffff		; 0x18: flat 32-bit code
tr_gdt_end:

; struct trampoline_data (smpboot.c): its fields in this order.
align 8
global tr_data
tr_data:
tr_started:	dq 0			; the AP writes 1 on its first steps
tr_pml4:	dq 0			; the trampoline's top table (< 4 GiB)
tr_efer:	dq 0
tr_cr0:		dq 0
tr_kernel_cr3:	dq 0
tr_entry:	dq 0			; secondary_startup_64
tr_cpu:		dq 0
tr_stack:	dq 0
trampoline_end:

; secondary_startup_64(cpu, stack_top, kernel_cr3): on the kernel's own
; page tables and the idle task's stack, into C. A zero frame pointer
; ends every backtrace there, as at the boot CPU's _start.
section .text
global secondary_startup_64
extern start_secondary
secondary_startup_64:
	mov cr3, rdx
	mov rsp, rsi
	xor ebp, ebp
	push rbp
	call start_secondary
.halt:
	cli
	hlt
	jmp .halt
