/** Why a file could not be written, in words an operator acts on; undefined for causes without a plain reading. */
export function whyCannotWrite(err: unknown): string | undefined {
  switch ((err as NodeJS.ErrnoException).code) {
    case 'ENOENT':
      return 'its folder does not exist';
    case 'EISDIR':
      return 'it is a folder';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOTDIR':
      return 'a part of the path is not a folder';
    case 'ENOSPC':
      return 'the disk is full';
    case 'EROFS':
      return 'the file system is read-only';
    case 'EEXIST':
      return 'it exists already';
    case 'not-a-file':
      return 'it is not a regular file (a device, pipe or socket)';
    case 'dangling-link':
      return 'it is a symbolic link to a file that does not exist';
    case 'EFBIG':
      return 'the file is larger than this system allows';
    case 'EDQUOT':
      return 'the disk quota is used up';
    default:
      return undefined;
  }
}
