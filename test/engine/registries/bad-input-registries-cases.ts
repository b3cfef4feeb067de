// The bad-input rows of Docker Hub's and GHCR's listings, the "Type a Repository…" prompt and the German
// translation's fallback: what the user gets, word for word. Asserted by test/unit/engine/registry/hosted-catalogs.test.ts
// (against the replayed APIs), test/integration/suite/registries-hosted.test.ts (the same messages in the
// Registries view) and test/unit/package/l10n.test.ts (the fallback). Part of BAD_INPUT_CASES.
import type { BadInputCase } from '../engine/bad-input-cases';

export const REGISTRIES_BAD_INPUT_CASES: readonly BadInputCase[] = [
  {
    id: 'hub-login-refused',
    category: 'Registries people use',
    action: 'Sign In to docker.io / Registries view: list docker.io',
    input: 'a wrong password for a Docker ID',
    kind: 'error',
    errorKind: 'unauthorized',
    message: 'Docker Hub refused the sign-in (401): Incorrect authentication credentials. Check the Docker ID and the password or personal access token, then sign in to docker.io again',
  },
  {
    id: 'hub-two-factor',
    category: 'Registries people use',
    action: 'Sign In to docker.io',
    input: 'the password of a Docker ID with two-factor authentication',
    kind: 'error',
    errorKind: 'unauthorized',
    message:
      'Docker Hub refused the sign-in (401): Require secondary authentication on MFA enabled account. This Docker ID uses two-factor authentication: sign in with a personal access token (Docker Hub → Account settings → Personal access tokens) as the password',
  },
  {
    id: 'hub-rate-limited',
    category: 'Registries people use',
    action: 'Registries view: list docker.io',
    input: 'Docker Hub answers 429 with Retry-After: 60',
    kind: 'error',
    errorKind: 'server',
    message: 'Docker Hub is limiting requests (429): Request was throttled. Expected available in 60 seconds. Refresh the Registries view in 60 s',
  },
  {
    id: 'hub-not-signed-in',
    category: 'Registries people use',
    action: 'Registries view: list docker.io',
    input: 'docker.io known without a Docker ID (an identity token only)',
    kind: 'error',
    errorKind: 'unauthorized',
    message: 'Docker Hub lists repositories only for a signed-in user. Sign in to docker.io with your Docker ID, or type a repository',
  },
  {
    id: 'ghcr-no-read-packages',
    category: 'Registries people use',
    action: 'Registries view: list ghcr.io',
    input: 'a GitHub token without the read:packages scope',
    kind: 'error',
    errorKind: 'denied',
    message:
      'GitHub denied the package listing (403): You need at least read:packages scope to list packages. The token lacks the read:packages scope (it has: repo): add it on GitHub (Settings → Developer settings → Personal access tokens), then sign in to ghcr.io again',
  },
  {
    id: 'ghcr-rate-limited',
    category: 'Registries people use',
    action: 'Registries view: list ghcr.io',
    input: 'GitHub answers 403 with x-ratelimit-remaining: 0',
    kind: 'error',
    errorKind: 'server',
    message: "GitHub's API rate limit is used up (403): API rate limit exceeded for user ID <id>. <GitHub's request id sentence> Refresh the Registries view at <hh:mm> UTC (in <minutes> min)",
  },
  {
    id: 'ghcr-bad-token',
    category: 'Registries people use',
    action: 'Sign In to ghcr.io / Registries view: list ghcr.io',
    input: 'a token that is wrong, expired or revoked',
    kind: 'error',
    errorKind: 'unauthorized',
    message: 'GitHub refused the token (401): Bad credentials. The token is wrong, expired or revoked: create a new one with the read:packages scope, then sign in to ghcr.io again',
  },
  {
    id: 'listing-refused-type-repository',
    category: 'Registries people use',
    action: 'Registries view: expand a registry',
    input: 'a registry that refuses the listing (catalog, Hub or GHCR)',
    kind: 'outcome',
    message: 'A "Cannot list repositories" row with the refusal above as its description and tooltip, then a "Type a Repository…" row that asks for a name and lists its tags; typed repositories stay listed (marked "typed") until forgotten',
  },
  {
    id: 'typed-repository-invalid',
    category: 'Registries people use',
    action: 'Type a Repository…',
    input: 'Busybox:latest',
    kind: 'error',
    errorKind: 'bad-request',
    message: '"Busybox:latest" is not a repository name: use lower-case letters, digits and . _ - separated by /, without a tag (team/app, not team/app:1.0)',
  },
  {
    id: 'translation-missing',
    category: 'Registries people use',
    action: 'any text, with VS Code in German',
    input: 'a string or package.json key the German bundle lacks',
    kind: 'outcome',
    message: 'The English text, never the raw key: l10n.t keys are the English texts themselves, and every %key% of package.json has an English value in package.nls.json',
  },
];
