import { Fragment } from "react";

/**
 * An email address (or a host name) that wraps after its "@" and dots when its cell is narrow, rather
 * than at an arbitrary letter ("admin@flagstaff.inval|id"); a part longer than the line still breaks
 * anywhere through the cell's `wrap-anywhere`.
 */
export function AddressText({ text }: { text: string }) {
  const parts = text.split(/(?<=[@.])/);
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </>
  );
}
