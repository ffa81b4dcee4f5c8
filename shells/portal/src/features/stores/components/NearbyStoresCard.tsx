// Home's "Stores near you": a chunk of its own (the location and event pages are another).
import { StoresStrings } from '../i18n/strings';
import { NearbyStores } from './NearbyStores';

export function NearbyStoresCard() {
  return (
    <StoresStrings>
      <NearbyStores />
    </StoresStrings>
  );
}
