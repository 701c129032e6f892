// Which drive items a connector brings in: files (not folders) that are not deleted and lie in its
// folder or below. Graph writes an item's place as parentReference.path, `/drive/root:/A/B` (or
// `/drives/{id}/root:/A/B`), percent-encoded in places; SharePoint compares paths without case.
import type { DriveItem } from './graph-client.js';

/** "Policies/HR/" → "/policies/hr"; null or "/" → "" (the whole library). */
export function normalizeFolder(folder: string | null): string {
  if (folder === null) return '';
  const trimmed = folder.split('/').filter((part) => part.trim() !== '').join('/');
  return trimmed === '' ? '' : `/${trimmed.toLowerCase()}`;
}

function parentFolder(item: DriveItem): string | undefined {
  const path = item.parentReference?.path;
  if (path === undefined) return undefined;
  const at = path.indexOf('root:');
  if (at < 0) return undefined;
  let folder = path.slice(at + 'root:'.length);
  try {
    folder = decodeURIComponent(folder);
  } catch {
    // Left as it is: a path with a stray % is compared as written.
  }
  return normalizeFolder(folder);
}

/** Whether the item is a file of the library inside `folder` (normalized). */
export function inScope(item: DriveItem, folder: string): boolean {
  if (item.deleted !== undefined || item.file === undefined) return false;
  const parent = parentFolder(item);
  if (parent === undefined) return false;
  return folder === '' || parent === folder || parent.startsWith(`${folder}/`);
}

/** What identifies the item's present version: a change of either tag means a change of the file. */
export function versionOf(item: DriveItem): string {
  return `${item.eTag ?? ''}|${item.cTag ?? ''}`;
}
