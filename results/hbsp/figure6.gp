set terminal svg size 1200,520 dynamic enhanced font 'sans,12'
set output 'results/hbsp/figure6.svg'
# Figure 6 of the HBSP^1 paper (Williams & Parsons 2001), predicted by hetstruct.
set datafile separator ','
set xlabel 'problem size n (KB of integers)'
set ylabel 'predicted improvement factor'
set xrange [100:1000]
set xtics 100,100,1000
set grid
set key top left box opaque spacing 1.1 font ',10'
set multiplot layout 1,2 title "Figure 6: two-phase broadcast, HBSP^1 model predictions on the paper's cluster (g = 0.196 us/byte, L from Table 4)\n{/*0.8 solid: messages to self counted, as in the paper's closed forms; dashed: not counted, as in its implementation}"
set title "(a) T_s/T_f: root slowest vs fastest, c_j = 1/p"
plot 'results/hbsp/figure6.csv' skip 1 using 7:((strcol(3) eq 'a' && strcol(5) eq 'paper' && $6 == 2) ? $11 : 1/0) with linespoints lw 2 pt 7 ps 0.7 dt 1 lc rgb '#1f4e79' title 'p = 2', \
     'results/hbsp/figure6.csv' skip 1 using 7:((strcol(3) eq 'a' && strcol(5) eq 'exact' && $6 == 2) ? $11 : 1/0) with linespoints lw 2 pt 6 ps 0.7 dt 2 lc rgb '#1f4e79' notitle, \
     'results/hbsp/figure6.csv' skip 1 using 7:((strcol(3) eq 'a' && strcol(5) eq 'paper' && $6 == 4) ? $11 : 1/0) with linespoints lw 2 pt 7 ps 0.7 dt 1 lc rgb '#c0392b' title 'p = 4', \
     'results/hbsp/figure6.csv' skip 1 using 7:((strcol(3) eq 'a' && strcol(5) eq 'exact' && $6 == 4) ? $11 : 1/0) with linespoints lw 2 pt 6 ps 0.7 dt 2 lc rgb '#c0392b' notitle, \
     'results/hbsp/figure6.csv' skip 1 using 7:((strcol(3) eq 'a' && strcol(5) eq 'paper' && $6 == 6) ? $11 : 1/0) with linespoints lw 2 pt 7 ps 0.7 dt 1 lc rgb '#27ae60' title 'p = 6', \
     'results/hbsp/figure6.csv' skip 1 using 7:((strcol(3) eq 'a' && strcol(5) eq 'exact' && $6 == 6) ? $11 : 1/0) with linespoints lw 2 pt 6 ps 0.7 dt 2 lc rgb '#27ae60' notitle, \
     'results/hbsp/figure6.csv' skip 1 using 7:((strcol(3) eq 'a' && strcol(5) eq 'paper' && $6 == 8) ? $11 : 1/0) with linespoints lw 2 pt 7 ps 0.7 dt 1 lc rgb '#8e44ad' title 'p = 8', \
     'results/hbsp/figure6.csv' skip 1 using 7:((strcol(3) eq 'a' && strcol(5) eq 'exact' && $6 == 8) ? $11 : 1/0) with linespoints lw 2 pt 6 ps 0.7 dt 2 lc rgb '#8e44ad' notitle, \
     'results/hbsp/figure6.csv' skip 1 using 7:((strcol(3) eq 'a' && strcol(5) eq 'paper' && $6 == 10) ? $11 : 1/0) with linespoints lw 2 pt 7 ps 0.7 dt 1 lc rgb '#d68910' title 'p = 10', \
     'results/hbsp/figure6.csv' skip 1 using 7:((strcol(3) eq 'a' && strcol(5) eq 'exact' && $6 == 10) ? $11 : 1/0) with linespoints lw 2 pt 6 ps 0.7 dt 2 lc rgb '#d68910' notitle
set title "(b) T_u/T_b: equal (1/p) vs balanced (c_j) workload, root fastest"
plot 'results/hbsp/figure6.csv' skip 1 using 7:((strcol(3) eq 'b' && strcol(5) eq 'paper' && $6 == 2) ? $11 : 1/0) with linespoints lw 2 pt 7 ps 0.7 dt 1 lc rgb '#1f4e79' title 'p = 2', \
     'results/hbsp/figure6.csv' skip 1 using 7:((strcol(3) eq 'b' && strcol(5) eq 'exact' && $6 == 2) ? $11 : 1/0) with linespoints lw 2 pt 6 ps 0.7 dt 2 lc rgb '#1f4e79' notitle, \
     'results/hbsp/figure6.csv' skip 1 using 7:((strcol(3) eq 'b' && strcol(5) eq 'paper' && $6 == 4) ? $11 : 1/0) with linespoints lw 2 pt 7 ps 0.7 dt 1 lc rgb '#c0392b' title 'p = 4', \
     'results/hbsp/figure6.csv' skip 1 using 7:((strcol(3) eq 'b' && strcol(5) eq 'exact' && $6 == 4) ? $11 : 1/0) with linespoints lw 2 pt 6 ps 0.7 dt 2 lc rgb '#c0392b' notitle, \
     'results/hbsp/figure6.csv' skip 1 using 7:((strcol(3) eq 'b' && strcol(5) eq 'paper' && $6 == 6) ? $11 : 1/0) with linespoints lw 2 pt 7 ps 0.7 dt 1 lc rgb '#27ae60' title 'p = 6', \
     'results/hbsp/figure6.csv' skip 1 using 7:((strcol(3) eq 'b' && strcol(5) eq 'exact' && $6 == 6) ? $11 : 1/0) with linespoints lw 2 pt 6 ps 0.7 dt 2 lc rgb '#27ae60' notitle, \
     'results/hbsp/figure6.csv' skip 1 using 7:((strcol(3) eq 'b' && strcol(5) eq 'paper' && $6 == 8) ? $11 : 1/0) with linespoints lw 2 pt 7 ps 0.7 dt 1 lc rgb '#8e44ad' title 'p = 8', \
     'results/hbsp/figure6.csv' skip 1 using 7:((strcol(3) eq 'b' && strcol(5) eq 'exact' && $6 == 8) ? $11 : 1/0) with linespoints lw 2 pt 6 ps 0.7 dt 2 lc rgb '#8e44ad' notitle, \
     'results/hbsp/figure6.csv' skip 1 using 7:((strcol(3) eq 'b' && strcol(5) eq 'paper' && $6 == 10) ? $11 : 1/0) with linespoints lw 2 pt 7 ps 0.7 dt 1 lc rgb '#d68910' title 'p = 10', \
     'results/hbsp/figure6.csv' skip 1 using 7:((strcol(3) eq 'b' && strcol(5) eq 'exact' && $6 == 10) ? $11 : 1/0) with linespoints lw 2 pt 6 ps 0.7 dt 2 lc rgb '#d68910' notitle
unset multiplot
set terminal pngcairo size 1500,650 enhanced font 'sans,12'
set output 'results/hbsp/figure6.png'
# Figure 6 of the HBSP^1 paper (Williams & Parsons 2001), predicted by hetstruct.
set datafile separator ','
set xlabel 'problem size n (KB of integers)'
set ylabel 'predicted improvement factor'
set xrange [100:1000]
set xtics 100,100,1000
set grid
set key top left box opaque spacing 1.1 font ',10'
set multiplot layout 1,2 title "Figure 6: two-phase broadcast, HBSP^1 model predictions on the paper's cluster (g = 0.196 us/byte, L from Table 4)\n{/*0.8 solid: messages to self counted, as in the paper's closed forms; dashed: not counted, as in its implementation}"
set title "(a) T_s/T_f: root slowest vs fastest, c_j = 1/p"
plot 'results/hbsp/figure6.csv' skip 1 using 7:((strcol(3) eq 'a' && strcol(5) eq 'paper' && $6 == 2) ? $11 : 1/0) with linespoints lw 2 pt 7 ps 0.7 dt 1 lc rgb '#1f4e79' title 'p = 2', \
     'results/hbsp/figure6.csv' skip 1 using 7:((strcol(3) eq 'a' && strcol(5) eq 'exact' && $6 == 2) ? $11 : 1/0) with linespoints lw 2 pt 6 ps 0.7 dt 2 lc rgb '#1f4e79' notitle, \
     'results/hbsp/figure6.csv' skip 1 using 7:((strcol(3) eq 'a' && strcol(5) eq 'paper' && $6 == 4) ? $11 : 1/0) with linespoints lw 2 pt 7 ps 0.7 dt 1 lc rgb '#c0392b' title 'p = 4', \
     'results/hbsp/figure6.csv' skip 1 using 7:((strcol(3) eq 'a' && strcol(5) eq 'exact' && $6 == 4) ? $11 : 1/0) with linespoints lw 2 pt 6 ps 0.7 dt 2 lc rgb '#c0392b' notitle, \
     'results/hbsp/figure6.csv' skip 1 using 7:((strcol(3) eq 'a' && strcol(5) eq 'paper' && $6 == 6) ? $11 : 1/0) with linespoints lw 2 pt 7 ps 0.7 dt 1 lc rgb '#27ae60' title 'p = 6', \
     'results/hbsp/figure6.csv' skip 1 using 7:((strcol(3) eq 'a' && strcol(5) eq 'exact' && $6 == 6) ? $11 : 1/0) with linespoints lw 2 pt 6 ps 0.7 dt 2 lc rgb '#27ae60' notitle, \
     'results/hbsp/figure6.csv' skip 1 using 7:((strcol(3) eq 'a' && strcol(5) eq 'paper' && $6 == 8) ? $11 : 1/0) with linespoints lw 2 pt 7 ps 0.7 dt 1 lc rgb '#8e44ad' title 'p = 8', \
     'results/hbsp/figure6.csv' skip 1 using 7:((strcol(3) eq 'a' && strcol(5) eq 'exact' && $6 == 8) ? $11 : 1/0) with linespoints lw 2 pt 6 ps 0.7 dt 2 lc rgb '#8e44ad' notitle, \
     'results/hbsp/figure6.csv' skip 1 using 7:((strcol(3) eq 'a' && strcol(5) eq 'paper' && $6 == 10) ? $11 : 1/0) with linespoints lw 2 pt 7 ps 0.7 dt 1 lc rgb '#d68910' title 'p = 10', \
     'results/hbsp/figure6.csv' skip 1 using 7:((strcol(3) eq 'a' && strcol(5) eq 'exact' && $6 == 10) ? $11 : 1/0) with linespoints lw 2 pt 6 ps 0.7 dt 2 lc rgb '#d68910' notitle
set title "(b) T_u/T_b: equal (1/p) vs balanced (c_j) workload, root fastest"
plot 'results/hbsp/figure6.csv' skip 1 using 7:((strcol(3) eq 'b' && strcol(5) eq 'paper' && $6 == 2) ? $11 : 1/0) with linespoints lw 2 pt 7 ps 0.7 dt 1 lc rgb '#1f4e79' title 'p = 2', \
     'results/hbsp/figure6.csv' skip 1 using 7:((strcol(3) eq 'b' && strcol(5) eq 'exact' && $6 == 2) ? $11 : 1/0) with linespoints lw 2 pt 6 ps 0.7 dt 2 lc rgb '#1f4e79' notitle, \
     'results/hbsp/figure6.csv' skip 1 using 7:((strcol(3) eq 'b' && strcol(5) eq 'paper' && $6 == 4) ? $11 : 1/0) with linespoints lw 2 pt 7 ps 0.7 dt 1 lc rgb '#c0392b' title 'p = 4', \
     'results/hbsp/figure6.csv' skip 1 using 7:((strcol(3) eq 'b' && strcol(5) eq 'exact' && $6 == 4) ? $11 : 1/0) with linespoints lw 2 pt 6 ps 0.7 dt 2 lc rgb '#c0392b' notitle, \
     'results/hbsp/figure6.csv' skip 1 using 7:((strcol(3) eq 'b' && strcol(5) eq 'paper' && $6 == 6) ? $11 : 1/0) with linespoints lw 2 pt 7 ps 0.7 dt 1 lc rgb '#27ae60' title 'p = 6', \
     'results/hbsp/figure6.csv' skip 1 using 7:((strcol(3) eq 'b' && strcol(5) eq 'exact' && $6 == 6) ? $11 : 1/0) with linespoints lw 2 pt 6 ps 0.7 dt 2 lc rgb '#27ae60' notitle, \
     'results/hbsp/figure6.csv' skip 1 using 7:((strcol(3) eq 'b' && strcol(5) eq 'paper' && $6 == 8) ? $11 : 1/0) with linespoints lw 2 pt 7 ps 0.7 dt 1 lc rgb '#8e44ad' title 'p = 8', \
     'results/hbsp/figure6.csv' skip 1 using 7:((strcol(3) eq 'b' && strcol(5) eq 'exact' && $6 == 8) ? $11 : 1/0) with linespoints lw 2 pt 6 ps 0.7 dt 2 lc rgb '#8e44ad' notitle, \
     'results/hbsp/figure6.csv' skip 1 using 7:((strcol(3) eq 'b' && strcol(5) eq 'paper' && $6 == 10) ? $11 : 1/0) with linespoints lw 2 pt 7 ps 0.7 dt 1 lc rgb '#d68910' title 'p = 10', \
     'results/hbsp/figure6.csv' skip 1 using 7:((strcol(3) eq 'b' && strcol(5) eq 'exact' && $6 == 10) ? $11 : 1/0) with linespoints lw 2 pt 6 ps 0.7 dt 2 lc rgb '#d68910' notitle
unset multiplot
