// Files as the person picked or dropped them, folders walked to their files. Hidden files of a
// folder (.DS_Store, .git/…) are left out: they were not meant as documents, and the server would
// refuse most of them.
import type { DirectoryDropItem, DropItem } from 'react-aria-components';
import type { PickedFile } from './upload-queue';

const isHidden = (name: string) => name.startsWith('.');

/** Files from a file input; with a folder chosen, each keeps its path inside it. */
export function pickedFromList(list: FileList | null): PickedFile[] {
  return Array.from(list ?? [])
    .map((file) => ({ file, name: file.webkitRelativePath || file.name }))
    .filter(({ name }) => !name.split('/').some(isHidden));
}

async function filesOfDirectory(directory: DirectoryDropItem, path: string): Promise<PickedFile[]> {
  const found: PickedFile[] = [];
  for await (const entry of directory.getEntries()) {
    if (isHidden(entry.name)) continue;
    const name = `${path}/${entry.name}`;
    if (entry.kind === 'directory') found.push(...(await filesOfDirectory(entry, name)));
    else found.push({ file: await entry.getFile(), name });
  }
  return found;
}

/** Files dropped, with the files of dropped folders; dragged text is not a file and is ignored. */
export async function pickedFromDrop(items: DropItem[]): Promise<PickedFile[]> {
  const found: PickedFile[] = [];
  for (const item of items) {
    if (item.kind === 'file') found.push({ file: await item.getFile(), name: item.name });
    else if (item.kind === 'directory' && !isHidden(item.name)) found.push(...(await filesOfDirectory(item, item.name)));
  }
  return found;
}
