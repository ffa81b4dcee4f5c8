// The IP database's credit, shown after a note on where distances are measured from when the
// position came from the member's address (its licence asks for it wherever such a position is
// used). A build-time piece: the shell's store pages and mfe-profile's store picker each bundle it.
import type { Here } from '@portal/runtime/geolocation';

export function GeoCredit({ here }: { here: Here }) {
  if (here.source !== 'ip' || !here.credit) return null;
  return (
    <>
      {' '}
      {here.credit.url ? (
        <a href={here.credit.url} target="_blank" rel="noopener noreferrer">
          {here.credit.text}
        </a>
      ) : (
        here.credit.text
      )}
    </>
  );
}
