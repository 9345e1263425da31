interface RootMatch {
  loaderData?: { config?: { title?: string } } | unknown;
}

/** "Page · Platform" for a route's meta, the platform name coming from the root loader. */
export function pageTitle(matches: ReadonlyArray<RootMatch | undefined>, page?: string | null) {
  const rootData = matches[0]?.loaderData as { config?: { title?: string } } | undefined;
  const site = rootData?.config?.title || "Flagstaff";
  return [{ title: page ? `${page} · ${site}` : site }];
}
