// REST types, generated: `make api-types` writes openapi.json from the gateway's own types and
// turns it into schema.d.ts (openapi-typescript); `make test` fails when the two drift.
// Code imports types from this file only.
import type { components } from './schema';

type Schemas = components['schemas'];

export type ApiErrorBody = Schemas['ErrorBody'];
export type NetworkAvailable = Schemas['NetworkAvailable'];
export type AgeResponse = Schemas['Age'];
// The tenant configuration (GET /api/config): the tenant crate's own types (portal_tenant), so a
// field added to the tenant file is typed here after `make api-types`.
export type PortalConfig = Schemas['PublicConfig'];
export type GeneralConfig = Schemas['GeneralConfig'];
export type SiteMeta = Schemas['SiteMeta'];
export type Theme = Schemas['Theme'];
/** The tenant's component settings (`components`): each there when the tenant file has it. */
export type ConfigComponents = Schemas['Components'];
export type ProfileComponent = Schemas['ProfileComponent'];
export type CommsComponent = Schemas['CommsComponent'];
export type SizeChart = Schemas['SizeChart'];
export type ClaimsComponent = Schemas['ClaimsComponent'];
export type ConnectionsComponent = Schemas['ConnectionsComponent'];
export type LoyaltyComponent = Schemas['LoyaltyComponent'];
export type QantasComponent = Schemas['QantasComponent'];
export type AuthRequest = Schemas['SignInRequest'];
/** Which event a sign-up is for (`eventData` of a sign-in). */
export type EventData = Schemas['EventData'];
/** An event sign-up's answers by field name (`customFields` of a sign-in). */
export type CustomFields = Schemas['CustomFields'];
export type CustomFieldValue = Schemas['CustomFieldValue'];
export type MessageResponse = Schemas['Message'];
export type ExchangeRequest = Schemas['ExchangeRequest'];
export type ExchangeResponse = Schemas['Session'];
export type Identity = Schemas['IdentityBody'];
export type Profile = Schemas['ProfileBody'];
export type Address = Schemas['AddressBody'];
export type ProfileUpdate = Schemas['ProfileUpdate'];
export type AttributeValue = Schemas['AttributeValue'];
export type ConsentRecord = Schemas['ConsentRecordBody'];
export type ConsentHistory = Schemas['ConsentHistory'];
export type Country = Schemas['CountryBody'];
export type CountryState = Schemas['StateBody'];
export type CountryList = Schemas['CountryList'];
export type StoreLocation = Schemas['LocationBody'];
export type GeolocationResponse = Schemas['Geolocation'];
export type EventConfig = Schemas['EventConfig'];
export type EventField = Schemas['EventField'];
export type EventOption = Schemas['EventOption'];
export type LocalText = Schemas['LocalText'];
export type Whereabouts = Schemas['Whereabouts'];
/** A check-in or event sign-up that a sign-in brought (`activity` of the session answer). */
export type SignInActivity = Schemas['Activity'];
/** The member's own sign-up for an event (`GET /api/activity/event/{m}`), with their answers. */
export type EventSignUp = Schemas['EventSignUp'];
export type TransactionItem = Schemas['TransactionItemBody'];
export type Transaction = Schemas['TransactionBody'];
export type PageMeta = Schemas['PageMeta'];
export type TransactionList = Schemas['TransactionPage'];
// The rewards tab (issue 9): the points ledger, expiry, tiers, rewards, the catalogue and offers.
export type Balances = Schemas['BalancesResponse'];
export type BalancesResponse = Schemas['BalancesResponse'];
export type Reward = Schemas['RewardBody'];
export type RewardList = Schemas['RewardList'];
export type RewardResponse = Schemas['RewardResponse'];
export type CatalogueItem = Schemas['CatalogueItemBody'];
export type Catalogue = Schemas['Catalogue'];
export type RedeemRequest = Schemas['RedeemRequest'];
export type Redemption = Schemas['RedemptionBody'];
export type RedemptionResponse = Schemas['RedemptionResponse'];
export type PointsEntry = Schemas['PointsBody'];
export type PointsPage = Schemas['PointsPage'];
/** The earlier name of `PointsPage`. */
export type PointsList = PointsPage;
export type ExpiringPoints = Schemas['ExpiringBody'];
export type ExpiringList = Schemas['ExpiringList'];
export type Tier = Schemas['TierBody'];
export type TierList = Schemas['TierList'];
export type TierRef = Schemas['TierRef'];
export type TierProgress = Schemas['TierProgressBody'];
export type TierProgressResponse = Schemas['TierProgressResponse'];
export type Benefit = Schemas['BenefitBody'];
export type BenefitList = Schemas['BenefitList'];
export type BenefitResponse = Schemas['BenefitResponse'];
export type BenefitDefinition = Schemas['BenefitDefinitionBody'];
export type QffPoints = Schemas['QffPoints'];
export type Connection = Schemas['ConnectionBody'];
export type ConnectionList = Schemas['ConnectionList'];
export type ConnectionResponse = Schemas['ConnectionResponse'];
export type NewConnection = Schemas['NewConnection'];
export type ProductList = Schemas['ListBody'];
export type ProductLists = Schemas['Lists'];
export type ProductListResponse = Schemas['ListResponse'];
export type NewList = Schemas['NewList'];
export type ListItem = Schemas['ListItemBody'];
export type ListItemResponse = Schemas['ListItemResponse'];
export type NewListItem = Schemas['NewListItem'];
export type ListItemLink = Schemas['ListItemLinkBody'];
export type LinkRequest = Schemas['LinkRequest'];
export type LinkResponse = Schemas['LinkResponse'];
export type Claim = Schemas['ClaimBody'];
export type ClaimList = Schemas['ClaimList'];
export type ClaimRequest = Schemas['ClaimRequest'];
export type ClaimResponse = Schemas['ClaimResponse'];

// The micro-frontend manifest (GET /mfe-manifest.json): each tab's release for the caller.
export interface MfeManifestEntry {
  entry: string;
  version: string;
  /** A canary release (the shell reports each load of it). */
  canary?: boolean;
}

export type MfeManifest = Record<string, MfeManifestEntry>;
