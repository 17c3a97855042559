// The part of fs-native-extensions the data folder lock uses (the package ships no types).
declare module 'fs-native-extensions' {
  /** The file locks of the package: open file description locks on Linux, flock elsewhere. */
  const nativeFs: {
    /** Take an exclusive lock on the whole open file `fd`; false when another descriptor holds one. */
    tryLock(fd: number): boolean;
    /** Let go of the lock held on `fd` (closing `fd` does it too). */
    unlock(fd: number): void;
  };
  export default nativeFs;
}
