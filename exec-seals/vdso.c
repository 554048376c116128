// SPDX-License-Identifier: GPL-2.0
/*
 * vdso.c - find the vDSO's own clock_gettime() in its ELF image and check
 * that calling it works, without going through libc.
 */
#define _GNU_SOURCE
#include "exec-seals.h"

#include <elf.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Where the image's addresses land: load address minus link address. */
static uintptr_t load_bias(const Elf64_Ehdr *eh)
{
	const Elf64_Phdr *ph = (const void *)((const char *)eh + eh->e_phoff);

	for (int i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD)
			return (uintptr_t)eh + ph[i].p_offset - ph[i].p_vaddr;
	return 0;
}

static const Elf64_Shdr *section_of_type(const Elf64_Ehdr *eh, uint32_t type)
{
	const Elf64_Shdr *sh = (const void *)((const char *)eh + eh->e_shoff);

	for (int i = 0; i < eh->e_shnum; i++)
		if (sh[i].sh_type == type)
			return &sh[i];
	return NULL;
}

static uintptr_t vdso_symbol(const char *name)
{
	const Elf64_Ehdr *eh = (const void *)getauxval(AT_SYSINFO_EHDR);
	const Elf64_Shdr *sym, *str;
	const Elf64_Sym *syms;
	const char *names;

	if (!eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || !eh->e_shoff)
		return 0;
	sym = section_of_type(eh, SHT_DYNSYM);
	if (!sym || !sym->sh_entsize)
		return 0;
	str = (const Elf64_Shdr *)((const char *)eh + eh->e_shoff) + sym->sh_link;
	syms = (const void *)((const char *)eh + sym->sh_offset);
	names = (const char *)eh + str->sh_offset;
	for (size_t i = 0; i < sym->sh_size / sym->sh_entsize; i++)
		if (syms[i].st_shndx != SHN_UNDEF &&
		    strcmp(names + syms[i].st_name, name) == 0)
			return load_bias(eh) + syms[i].st_value;
	return 0;
}

vdso_gettime_fn vdso_gettime(void)
{
	uintptr_t at = vdso_symbol("__vdso_clock_gettime");

	return at ? (vdso_gettime_fn)at : NULL;
}

static long long ns(const struct timespec *ts)
{
	return ts->tv_sec * 1000000000LL + ts->tv_nsec;
}

bool vdso_works(vdso_gettime_fn fn)
{
	struct timespec before, in_vdso, after;

	if (!fn || syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &before) != 0 ||
	    fn(CLOCK_MONOTONIC, &in_vdso) != 0 ||
	    syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &after) != 0)
		return false;
	return ns(&before) <= ns(&in_vdso) && ns(&in_vdso) <= ns(&after);
}
