// The location and event pages, one chunk fetched when one is opened, with their strings.
import { StoresStrings } from '../i18n/strings';
import { LocationPage } from './LocationPage';
import { EventPage } from './EventPage';

export type VisitKind = 'location' | 'event';

export function VisitScreen({ kind, path, search }: { kind: VisitKind; path: string; search: string }) {
  return (
    <StoresStrings>
      {kind === 'location' ? <LocationPage path={path} search={search} /> : <EventPage path={path} search={search} />}
    </StoresStrings>
  );
}
