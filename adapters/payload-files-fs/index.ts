export {
  FolderPayloadFiles,
  createFolderPayloadFiles,
  type FolderPayloadFilesOptions,
} from './folder-payload-files.js';
