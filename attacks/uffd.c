/*
 * uffd.c - the attacker's userfaultfd: user-mode faults only (what an
 * unprivileged process gets when vm.unprivileged_userfaultfd is 0), past
 * the API handshake, with the features the caller asks for.
 */
#define _GNU_SOURCE
#include "attacks.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

int uffd_open(int flags, unsigned long long features)
{
	int fd = (int)syscall(SYS_userfaultfd,
			      O_CLOEXEC | UFFD_USER_MODE_ONLY | flags);
	struct uffdio_api api = { .api = UFFD_API, .features = features };

	if (fd >= 0 && ioctl(fd, UFFDIO_API, &api) != 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

int uffd_register_missing(int fd, void *page, size_t len)
{
	struct uffdio_register reg = {
		.range = { .start = (uintptr_t)page, .len = len },
		.mode = UFFDIO_REGISTER_MODE_MISSING,
	};
	return ioctl(fd, UFFDIO_REGISTER, &reg) == 0 ? 0 : errno;
}

/* The attacker's bytes (its function entry at the page's start). */
int uffd_copy_payload(int fd, const struct target *t, void *page)
{
	uint8_t *bytes = mmap(NULL, t->page, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (bytes == MAP_FAILED)
		return ATTACK_SETUP_FAILED;
	struct target at_page = *t;
	at_page.entry_offset = 0;
	target_payload(&at_page, bytes, t->page);
	struct uffdio_copy copy = { .dst = (uintptr_t)page,
				    .src = (uintptr_t)bytes, .len = t->page };
	int err = ioctl(fd, UFFDIO_COPY, &copy) == 0 ? 0 : errno;
	munmap(bytes, t->page);
	return err;
}
