package dev.reverie.cli;

import dev.reverie.ContextManager;
import dev.reverie.Memory;
import dev.reverie.MemoryAdmin;
import dev.reverie.Scope;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** The commands that change the store: delete, edit, export (writes a file), import, erase. */
final class ChangeCommands {

    private ChangeCommands() {
    }

    @Command(name = "delete", mixinStandardHelpOptions = true,
            description = "Delete a memory (its history stays, with a DELETED event), or an observation with --observation.")
    static final class Delete extends StoreCommand {
        @Parameters(index = "0", paramLabel = "SCOPE", description = "tenant/agent/user")
        String scope;
        @Parameters(index = "1", paramLabel = "ID", description = "The memory's id (or the observation's, with --observation).")
        String id;
        @Option(names = "--observation", description = "ID names an L3 observation, not a memory.")
        boolean observation;

        @Override
        int run(ContextManager memory) {
            Scope s = Scopes.user(scope);
            MemoryAdmin admin = memory.admin();
            if (observation) {
                if (admin.observation(s, id).isEmpty()) {
                    throw new CliException("observation id '" + id + "' does not exist in scope " + s);
                }
                admin.deleteObservation(s, id);
                out().println("deleted observation " + id + " of " + s);
            } else {
                InspectCommands.existing(admin, s, id);
                admin.deleteMemory(s, id);
                out().println("deleted memory " + id + " of " + s);
            }
            return ReverieCli.OK;
        }
    }

    @Command(name = "edit", mixinStandardHelpOptions = true,
            description = "Replace a memory's text in place (an EDITED history event keeps the old text; secrets are redacted).")
    static final class Edit extends StoreCommand {
        @Parameters(index = "0", paramLabel = "SCOPE", description = "tenant/agent/user")
        String scope;
        @Parameters(index = "1", paramLabel = "MEMORY_ID", description = "The memory's id.")
        String id;
        @Parameters(index = "2", paramLabel = "TEXT", description = "The new text (quote it).")
        String text;

        @Override
        int run(ContextManager memory) {
            Scope s = Scopes.user(scope);
            InspectCommands.existing(memory.admin(), s, id);
            Memory edited = memory.admin().edit(s, id, text);
            out().println("edited memory " + id + " of " + s + ": " + Table.clean(edited.text()));
            return ReverieCli.OK;
        }
    }

    @Command(name = "export", mixinStandardHelpOptions = true,
            description = "Write everything kept about an end user to FILE as versioned JSON ('-' for stdout).")
    static final class Export extends StoreCommand {
        @Parameters(index = "0", paramLabel = "SCOPE", description = "tenant/agent/user")
        String scope;
        @Parameters(index = "1", paramLabel = "FILE", description = "The file to write; '-' writes to stdout.")
        String file;
        @Option(names = "--force", description = "Overwrite FILE if it exists.")
        boolean force;

        @Override
        int run(ContextManager memory) throws IOException {
            Scope s = Scopes.user(scope);
            if (file.equals("-")) {
                memory.admin().exportTo(s, out());
                out().println();
                return ReverieCli.OK;
            }
            Path path = Path.of(file);
            try (OutputStream os = force ? Files.newOutputStream(path)
                    : Files.newOutputStream(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                memory.admin().exportTo(s, os);
            } catch (FileAlreadyExistsException e) {
                throw new CliException("file " + file + " exists (use --force to overwrite it)");
            } catch (NoSuchFileException e) {
                throw new CliException("cannot write " + file + ": no such folder");
            } catch (IOException e) {
                throw new CliException("cannot write " + file + ": " + e.getMessage());
            }
            out().println("exported " + s + " to " + file + " (" + Files.size(path) + " bytes)");
            return ReverieCli.OK;
        }
    }

    @Command(name = "import", mixinStandardHelpOptions = true,
            description = "Restore an end user from an export ('-' reads stdin); the end user must be empty."
                    + " Creates the store if it does not exist.")
    static final class Import extends StoreCommand {
        @Parameters(index = "0", paramLabel = "SCOPE", description = "tenant/agent/user")
        String scope;
        @Parameters(index = "1", paramLabel = "FILE", description = "An export file; '-' reads stdin.")
        String file;

        @Override
        boolean createsStore() {
            return true;
        }

        @Override
        int run(ContextManager memory) {
            Scope s = Scopes.user(scope);
            if (file.equals("-")) {
                memory.admin().importFrom(s, cli.in());
            } else {
                try (InputStream is = Files.newInputStream(Path.of(file))) {
                    memory.admin().importFrom(s, is);
                } catch (NoSuchFileException e) {
                    throw new CliException("cannot read " + file + ": no such file");
                } catch (IOException e) {
                    throw new CliException("cannot read " + file + ": " + e.getMessage());
                }
            }
            out().println("imported " + file + " into " + s + ": " + memory.admin().memories(s).size()
                    + " active memories, " + memory.admin().observations(s).size() + " observations");
            return ReverieCli.OK;
        }
    }

    @Command(name = "erase", mixinStandardHelpOptions = true,
            description = "Remove every trace of an end user (sessions, archive, observations, memories, history,"
                    + " style profile). Asks to type the user id unless --yes.")
    static final class Erase extends StoreCommand {
        @Parameters(index = "0", paramLabel = "SCOPE", description = "tenant/agent/user")
        String scope;
        @Option(names = "--yes", description = "Do not ask for confirmation.")
        boolean yes;

        @Override
        int run(ContextManager memory) throws IOException {
            Scope s = Scopes.user(scope);
            if (!yes) {
                cli.err().print("Erase everything kept about " + s + "? This cannot be undone."
                        + " Type the user id (" + s.endUserId() + ") to confirm: ");
                cli.err().flush();
                String answer = new BufferedReader(new InputStreamReader(cli.in(), StandardCharsets.UTF_8)).readLine();
                if (answer == null || !answer.trim().equals(s.endUserId())) {
                    cli.err().println();
                    throw new CliException("erase cancelled: the confirmation did not match " + s.endUserId());
                }
            }
            memory.admin().eraseEndUser(s);
            out().println("erased " + s);
            return ReverieCli.OK;
        }
    }
}
