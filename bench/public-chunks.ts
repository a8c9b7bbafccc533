/**
 * What the bundle bench counts as public (bench/bundle.bench.ts, and bench/bundle-modules.ts's
 * listing): the entry, what it imports, and every chunk it loads on demand that is not a staff page's
 * (with their imports). One definition for both, so the listing explains the figure.
 */
export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

// The episode desk's staff pages (issue 35) sit in features/episodes/ beside the public show page,
// and the release desk's (issue 34) in features/releases/ beside the artist's release pages.
export const isStaff = (src?: string) =>
  !!src &&
  /features\/(admin|moderator|staff-review)\/|features\/episodes\/(?!show-page)|features\/releases\/staff-/.test(src);

/** The entry's key, the chunks of the first visit, and all public chunks (manifest keys). */
export function publicChunks(manifest: Record<string, ManifestChunk>) {
  const publicKeys = new Set<string>();
  const add = (key: string) => {
    if (publicKeys.has(key)) return;
    publicKeys.add(key);
    for (const dep of manifest[key].imports ?? []) add(dep);
  };
  const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry)!;
  add(entryKey);
  const initial = new Set(publicKeys);
  for (const dyn of manifest[entryKey].dynamicImports ?? []) if (!isStaff(manifest[dyn].src)) add(dyn);
  return { entryKey, initial, publicKeys };
}
