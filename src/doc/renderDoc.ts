import type { AppModel } from '../model/appModel.ts';
import { modelOf, type SpecOrModel } from '../model/modelOf.ts';
import { joinBlocks } from './markdown.ts';
import { renderCalls } from './renderCalls.ts';
import { renderConstants } from './renderConstants.ts';
import { renderEntities } from './renderEntities.ts';
import { renderErrors } from './renderErrors.ts';
import { renderPurpose } from './renderPurpose.ts';
import { renderRoles } from './renderRoles.ts';
import { renderScreens } from './renderScreens.ts';
import { renderStates } from './renderStates.ts';
import { renderValidation } from './renderValidation.ts';

const CONTENTS = [
  ['1. Purpose', '1-purpose'],
  ['2. Screens and routes', '2-screens-and-routes'],
  ['3. Entities and fields', '3-entities-and-fields'],
  ['4. States and transitions', '4-states-and-transitions'],
  ['5. Validation rules', '5-validation-rules'],
  ['6. Roles and permissions', '6-roles-and-permissions'],
  ['7. Calls', '7-calls'],
  ['8. Error catalogue', '8-error-catalogue'],
  ['9. Constants and limits', '9-constants-and-limits'],
] as const;

/**
 * The specification as one Markdown document, in the nine sections of DESIGN.md, for the team
 * and the customer to read. Pure and deterministic: no dates, no randomness, everything in the
 * specification's own key order, so the output can be committed and diffed.
 *
 * @example
 * import { renderDoc } from './renderDoc.ts';
 * writeFileSync('docs/helpdesk.md', renderDoc(helpdesk));
 */
export function renderDoc(app: SpecOrModel): string {
  return renderModelDoc(modelOf(app));
}

/** The document of a resolved app model (what `renderDoc` renders after resolving the spec). */
export function renderModelDoc(model: AppModel): string {
  const body = joinBlocks([
    `# ${model.purpose.name.trim()}`,
    '_The application specification, generated from the app’s nine-section specification by `ninefold doc`. ' +
      'Edit the specification, not this file._',
    CONTENTS.map(([title, anchor]) => `- [${title}](#${anchor})`).join('\n'),
    renderPurpose(model),
    renderScreens(model),
    renderEntities(model),
    renderStates(model),
    renderValidation(model),
    renderRoles(model),
    renderCalls(model),
    renderErrors(model),
    renderConstants(model),
  ]);
  return `${body}\n`;
}
