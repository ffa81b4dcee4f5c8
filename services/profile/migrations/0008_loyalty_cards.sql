-- The brand's record of the loyalty cards it issued: a member may link (identity loyalty_card)
-- only a card in it, active and held by nobody else (profile_id '' when free). The number is in
-- its one form: upper case, no spaces or hyphens.
CREATE TABLE loyalty_cards (
    tenant TEXT NOT NULL,
    number TEXT NOT NULL,
    -- active, blocked (reported lost or stolen), cancelled
    status TEXT NOT NULL,
    profile_id TEXT NOT NULL DEFAULT '',
    issued_at BIGINT NOT NULL,
    linked_at BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (tenant, number)
);
CREATE INDEX loyalty_cards_profile ON loyalty_cards (profile_id);

-- Cards linked before the record existed were typed in freely. Each number held by exactly one
-- member (compared in the one form) becomes an issued card held by that member, so their link
-- keeps working. A number held by several members (LC-1 and lc-1 on two accounts) can't be told
-- whose it is: those links are removed, and the card is left for the brand to issue.
INSERT INTO loyalty_cards (tenant, number, status, profile_id, issued_at, linked_at)
SELECT p.tenant, UPPER(REPLACE(REPLACE(i.identifier, '-', ''), ' ', '')), 'active', MIN(i.profile_id), 0, 0
FROM identities i JOIN profiles p ON p.id = i.profile_id
WHERE i.handle = 'loyalty_card' AND i.identifier <> ''
GROUP BY p.tenant, UPPER(REPLACE(REPLACE(i.identifier, '-', ''), ' ', ''))
HAVING COUNT(*) = 1;
DELETE FROM identities
WHERE handle = 'loyalty_card' AND NOT EXISTS (SELECT 1 FROM loyalty_cards c WHERE c.profile_id = identities.profile_id);
UPDATE identities SET identifier = UPPER(REPLACE(REPLACE(identifier, '-', ''), ' ', '')) WHERE handle = 'loyalty_card';
