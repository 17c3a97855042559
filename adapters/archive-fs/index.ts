export { openFsArchive } from './open-fs-archive.js';
export type { FsArchive, FsArchiveOptions } from './fs-archive.js';
export { FsContractStore, openFsContractStore } from './fs-contract-store.js';
