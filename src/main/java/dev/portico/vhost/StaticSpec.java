package dev.portico.vhost;

import java.util.List;

/**
 * A vhost's static web service: which directory it serves and how requests map onto it.
 *
 * @param root the absolute directory served; its real path (symbolic links resolved) is taken at every lookup,
 *             so a release switch by moving a symbolic link takes effect without a reload
 * @param index file names tried, in order, in a directory
 * @param tryFiles templates tried in order, nginx {@code try_files} style: {@code $uri} is the decoded request
 *                 path; an entry ending in {@code /} names a directory (index files, or a listing), any other a
 *                 regular file
 * @param listing whether a directory without an index file gets an HTML listing
 * @param hidden whether dotfiles (a path segment starting with {@code .}) are served; {@code /.well-known/} always
 *               is
 * @param precompressed whether {@code file.br}, {@code file.zst} and {@code file.gz} next to a file are served to
 *                      clients that accept that coding
 * @param sendfile whether larger files go to cleartext connections with zero-copy {@code sendfile(2)}; otherwise
 *                 they are streamed through Vert.x's asynchronous file system
 * @param cacheControl {@code Cache-Control} values by path pattern; the first match wins
 */
public record StaticSpec(String root, List<String> index, List<String> tryFiles, boolean listing, boolean hidden,
                         boolean precompressed, boolean sendfile, List<CacheControlRule> cacheControl) {

    public StaticSpec {
        index = List.copyOf(index);
        tryFiles = List.copyOf(tryFiles);
        cacheControl = List.copyOf(cacheControl);
    }

    /**
     * A {@code Cache-Control} value for the files whose path (relative to the root, starting with {@code /})
     * matches {@code match}, where {@code *} stands for any characters, {@code /} included.
     */
    public record CacheControlRule(String match, String value) {
    }
}
