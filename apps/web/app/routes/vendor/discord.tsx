import { DiscordSetup } from '../../features/vendor/delivery/discord.tsx';

export default DiscordSetup;
