// What other workspace features use of the products folder: the status and kind labels.
export { kindLabels, statusLabels } from './labels.ts';
export { ConflictNotice, EditorHeading, StatusPill } from './status.tsx';
export { FilterSelect, ListHeading, ListingsTable, NoListings } from './list-kit.tsx';
export {
  DraftActions,
  DraftForm,
  ListingText,
  LoadedEditor,
  useDraftEditor,
} from './draft-editor.tsx';
